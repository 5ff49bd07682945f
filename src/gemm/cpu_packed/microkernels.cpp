// Which micro-kernel sets this build has (portkern/kernel/cpu/microkernel.hpp), and the one the CPU's device
// class uses.
#include "gemm/cpu_packed/kernel_set.hpp"
#include "portkern/error.hpp"

namespace portkern::kernel::cpu {

template <class T>
const MicroKernels<T>* microkernels(CpuIsa isa) {
  switch (isa) {
#if defined(__x86_64__)
    case CpuIsa::avx512: return &avx512_microkernels<T>();
    case CpuIsa::avx2: return &avx2_microkernels<T>();
#endif
    case CpuIsa::generic: return &generic_microkernels<T>();
    default: return nullptr;
  }
}

template <class T>
const MicroKernels<T>& active_microkernels() {
  const CpuIsa isa = active_cpu_isa();
  const MicroKernels<T>* set = microkernels<T>(isa);
  if (!set) fail("portkern::gemm", "this build has no " + std::string(cpu_isa_name(isa)) + " micro-kernels");
  return *set;
}

template const MicroKernels<float>* microkernels<float>(CpuIsa);
template const MicroKernels<double>* microkernels<double>(CpuIsa);
template const MicroKernels<float>& active_microkernels<float>();
template const MicroKernels<double>& active_microkernels<double>();

}  // namespace portkern::kernel::cpu
