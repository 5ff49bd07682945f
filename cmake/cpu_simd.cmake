# The CPU back end's code-generation flags. By default the host's own SIMD (-march=native); on a host with
# AVX-512, GCC still prefers 256-bit vectors unless told otherwise, and the kernels want the full width.
include(CheckCXXSourceRuns)
set(portkern_cpu_flags "")
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
