# Cross-compiling portkern's CPU back end for 64-bit Arm Linux with Debian's cross compiler
# (g++-aarch64-linux-gnu); programs run under qemu-user (qemu-aarch64), which CTest uses as the emulator.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)       # no x86 library is linked by mistake (OpenBLAS, oneDNN)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)       # header-only packages (nlohmann-json, CLI11) are shared
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64 -L /usr/aarch64-linux-gnu)
set(PORTKERN_CUDA OFF CACHE BOOL "" FORCE)
set(PORTKERN_CPU_ARCH "armv8-a" CACHE STRING "" FORCE)
