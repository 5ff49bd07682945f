// The vendor GEMMs portkern is measured against, behind one call shape: OpenBLAS and oneDNN on the CPU,
// cuBLAS on a GPU, twice: at the data's own precision (TF32 off), which the ratio uses, and with TF32 tensor
// cores (CUBLAS_COMPUTE_32F_FAST_TF32), shown beside it with its error; on the GPU the fastest per shape of
// the classic call and cuBLASLt's heuristic algorithms. Each is present only when the build found it.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "gemm/args.hpp"
#include "portkern/blas.hpp"

namespace portkern::bench {

// A GEMM's arguments and its transposes.
template <class T, class In = T>
struct GemmOperands : gemm_impl::GemmArgs<T, In> {
  bool ta = false, tb = false;
};

struct VendorGemm {
  std::string name;
  std::string precision;   // "ieee": the data's own precision, the ratio's reference; "tf32": shown beside
  std::string kernel;      // what the library runs here: OpenBLAS's core, oneDNN's ISA, cuBLAS's math mode
  std::function<void(Queue&, const GemmOperands<float>&)> sgemm;
  std::function<void(Queue&, const GemmOperands<double>&)> dgemm;
  std::function<void()> rest;   // puts the library's worker threads to sleep (empty: nothing to do)
};

std::vector<VendorGemm> cpu_vendor_gemms(int threads);
std::vector<VendorGemm> cuda_vendor_gemms(const Device& device);

// A vendor's GEMM on 16-bit inputs (In = bfloat16 or float16 A and B, fp32 compute and C) on a GPU: cuBLAS at
// its best; `run` empty in a build without CUDA. (oneDNN's, on the CPU, is called in gemm_half_bench.cpp.)
template <class In>
struct VendorHalfGemm {
  std::string name, kernel;
  std::function<void(Queue&, const GemmOperands<float, In>&)> run;
};
template <class In>
VendorHalfGemm<In> cuda_vendor_half_gemm(const Device& device);

inline std::vector<VendorGemm> vendor_gemms(const Device& device, int threads) {
  return device.is_cpu() ? cpu_vendor_gemms(threads) : cuda_vendor_gemms(device);
}

}  // namespace portkern::bench
