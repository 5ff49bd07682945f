# `cmake --install`: the library with its public headers, the drop-in BLAS and the command line, plus what a
# program outside the tree needs to use them: find_package(portkern) (portkernConfig.cmake, the exported
# target portkern::portkern with its OpenMP and CUDA runtime dependencies) and pkg-config (portkern.pc).
include(CMakePackageConfigHelpers)
set(portkern_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/portkern)

install(TARGETS portkern EXPORT portkernTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY include/portkern DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT portkernTargets NAMESPACE portkern:: DESTINATION ${portkern_cmake_dir})

configure_package_config_file(cmake/portkernConfig.cmake.in ${CMAKE_BINARY_DIR}/portkernConfig.cmake
                              INSTALL_DESTINATION ${portkern_cmake_dir})
write_basic_package_version_file(${CMAKE_BINARY_DIR}/portkernConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/portkernConfig.cmake ${CMAKE_BINARY_DIR}/portkernConfigVersion.cmake
        DESTINATION ${portkern_cmake_dir})

# pkg-config: the static library needs OpenMP (and the CUDA runtime in a CUDA build) when a program links it.
set(portkern_pc_cflags "")
set(portkern_pc_libs "-fopenmp")
if(PORTKERN_HAVE_CUDA)
  set(portkern_pc_cflags "-DPORTKERN_HAVE_CUDA=1 -I${CUDAToolkit_INCLUDE_DIRS}")
  set(portkern_pc_libs "-fopenmp -L${CUDAToolkit_LIBRARY_DIR} -lcudart")
endif()
# The prefix relative to the .pc file's folder, so the installed tree can move (libdir may be lib/<triplet>).
file(RELATIVE_PATH portkern_pc_to_prefix /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
string(REGEX REPLACE "/$" "" portkern_pc_to_prefix "${portkern_pc_to_prefix}")
configure_file(cmake/portkern.pc.in ${CMAKE_BINARY_DIR}/portkern.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/portkern.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
