// The vendor GEMMs portkern is measured against, behind one call shape: OpenBLAS and oneDNN on the CPU,
// cuBLAS (fp32 with TF32 off: default math mode) on a GPU. Each is present only when the build found it.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "gemm/args.hpp"
#include "portkern/blas.hpp"

namespace portkern::bench {

// A GEMM's arguments and its transposes.
template <class T>
struct GemmOperands : gemm_impl::GemmArgs<T> {
  bool ta = false, tb = false;
};

struct VendorGemm {
  std::string name;
  std::function<void(Queue&, const GemmOperands<float>&)> sgemm;
  std::function<void(Queue&, const GemmOperands<double>&)> dgemm;
};

std::vector<VendorGemm> cpu_vendor_gemms(int threads);
std::vector<VendorGemm> cuda_vendor_gemms();

inline std::vector<VendorGemm> vendor_gemms(const Device& device, int threads) {
  return device.is_cpu() ? cpu_vendor_gemms(threads) : cuda_vendor_gemms();
}

}  // namespace portkern::bench
