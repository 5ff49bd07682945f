# The CPU back end's code-generation flags. By default the host's own SIMD (-march=native); on a host with
# AVX-512, GCC still prefers 256-bit vectors unless told otherwise, and the kernels want the full width.
#
# The per-ISA micro-kernel files (src/gemm/cpu_packed/microkernel_<isa>.cpp) are compiled with their own
# target flags instead, whatever PORTKERN_CPU_ARCH is, so that every device class the build machine's compiler
# can target is in the library and chosen at run time (portkern/runtime/device_class.hpp): with
# PORTKERN_CPU_ARCH=x86-64 the rest of the library is baseline x86-64 and the micro-kernels give the speed.
#
# -fno-math-errno -fno-trapping-math: the library reads neither errno nor the floating-point exception flags,
# and code that might set them (a libm call, an int-to-double conversion, a division) is a side effect that
# keeps GCC from if-converting, and so from vectorising, a kernel's item loop (portkern/kernel/math.hpp). They
# change no result: values stay IEEE (unlike -ffast-math, which these are two parts of).
include(CheckCXXSourceRuns)
set(portkern_cpu_flags -fno-math-errno -fno-trapping-math)
if(PORTKERN_CPU_ARCH)
  list(APPEND portkern_cpu_flags -march=${PORTKERN_CPU_ARCH})
  set(CMAKE_REQUIRED_FLAGS "-march=${PORTKERN_CPU_ARCH}")
  check_cxx_source_runs("
    #ifndef __AVX512F__
    #error no avx512
    #endif
    int main() { return __builtin_cpu_supports(\"avx512f\") ? 0 : 1; }" PORTKERN_HOST_AVX512)
  unset(CMAKE_REQUIRED_FLAGS)
  if(PORTKERN_HOST_AVX512)
    list(APPEND portkern_cpu_flags -mprefer-vector-width=512)
  endif()
endif()

# portkern_isa_sources(<target>...): gives the micro-kernel files of those targets their ISA's flags (after the
# target's, so their -march wins; tuned for the host when the library is).
function(portkern_isa_sources)
  set(dir ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/..)   # the portkern source tree, from any project that includes this file
  if(NOT CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64|amd64")
    return()   # the x86 files compile to nothing elsewhere; only the generic micro-kernels exist
  endif()
  set(tune "")
  if(PORTKERN_CPU_ARCH STREQUAL "native")
    set(tune -mtune=native)
  endif()
  set_source_files_properties(${dir}/src/gemm/cpu_packed/microkernel_avx512.cpp TARGET_DIRECTORY ${ARGN}
    PROPERTIES COMPILE_OPTIONS "-march=x86-64-v4;-mprefer-vector-width=512;${tune}")
  set_source_files_properties(${dir}/src/gemm/cpu_packed/microkernel_avx2.cpp TARGET_DIRECTORY ${ARGN}
    PROPERTIES COMPILE_OPTIONS "-march=x86-64-v3;${tune}")
  # The BF16 GEMM's kernels (src/gemm/bf16/): AVX512-BF16, and AMX (Linux only: it asks the kernel for the state).
  set_source_files_properties(${dir}/src/gemm/bf16/kernel_avx512.cpp TARGET_DIRECTORY ${ARGN}
    PROPERTIES COMPILE_OPTIONS "-march=x86-64-v4;-mavx512bf16;-mprefer-vector-width=512;${tune}")
  set_source_files_properties(${dir}/src/gemm/bf16/kernel_amx.cpp TARGET_DIRECTORY ${ARGN}
    PROPERTIES COMPILE_OPTIONS "-march=x86-64-v4;-mavx512bf16;-mamx-tile;-mamx-bf16;${tune}")
endfunction()
