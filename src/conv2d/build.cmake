# The conv2d operation's part of the build (included from the top-level CMakeLists.txt once every target
# exists): library sources, CUDA sources, CLI sources, tests.
target_sources(portkern_cli PRIVATE tools/cli/cmd_bench_conv2d.cpp)
