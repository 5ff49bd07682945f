# Sourced by the GPU-machine scripts: header-only build dependencies that machine lacks (CLI11,
# nlohmann-json) may be carried as Debian packages in .debs/ (`apt-get download libcli11-dev
# nlohmann-json3-dev` there); they are unpacked into a private prefix that CMake searches.
portkern_deps_prefix=/tmp/portkern-deps
if compgen -G ".debs/*.deb" >/dev/null; then
  for deb in .debs/*.deb; do dpkg -x "$deb" "$portkern_deps_prefix"; done
fi
export CMAKE_PREFIX_PATH="$portkern_deps_prefix/usr${CMAKE_PREFIX_PATH:+:$CMAKE_PREFIX_PATH}"
