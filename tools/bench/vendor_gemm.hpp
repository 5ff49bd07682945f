// The vendor GEMMs portkern is measured against, behind one call shape: OpenBLAS and oneDNN on the CPU,
// cuBLAS (fp32 with TF32 off: default math mode) on a GPU. Each is present only when the build found it.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "portkern/blas.hpp"

namespace portkern::bench {

template <class T>
struct GemmOperands {
  bool ta, tb;
  std::int64_t m, n, k;
  T alpha;
  const T* a;
  std::int64_t lda, stride_a;
  const T* b;
  std::int64_t ldb, stride_b;
  T beta;
  T* c;
  std::int64_t ldc, stride_c;
  std::int64_t batch;
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
