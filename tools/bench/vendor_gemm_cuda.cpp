// cuBLAS on a GPU: strided-batched SGEMM/DGEMM in the default math mode, which for fp32 does not use TF32.
#include "bench/vendor_gemm.hpp"

#if PORTKERN_HAVE_CUDA
#include <cublas_v2.h>

#include <memory>

#include "portkern/error.hpp"
#endif

namespace portkern::bench {

#if PORTKERN_HAVE_CUDA
namespace {

void check(cublasStatus_t status, const char* call) {
  if (status != CUBLAS_STATUS_SUCCESS) fail("cuBLAS", std::string(call) + " failed: " + cublasGetStatusString(status));
}

template <class T>
void cublas(cublasHandle_t handle, Queue& q, const GemmOperands<T>& g) {
  check(cublasSetStream(handle, static_cast<cudaStream_t>(q.native_stream())), "cublasSetStream");
  const auto ta = g.ta ? CUBLAS_OP_T : CUBLAS_OP_N, tb = g.tb ? CUBLAS_OP_T : CUBLAS_OP_N;
  if constexpr (std::is_same_v<T, float>)
    check(cublasSgemmStridedBatched(handle, ta, tb, int(g.m), int(g.n), int(g.k), &g.alpha, g.a, int(g.lda), g.stride_a,
                                    g.b, int(g.ldb), g.stride_b, &g.beta, g.c, int(g.ldc), g.stride_c, int(g.batch)),
          "cublasSgemmStridedBatched");
  else
    check(cublasDgemmStridedBatched(handle, ta, tb, int(g.m), int(g.n), int(g.k), &g.alpha, g.a, int(g.lda), g.stride_a,
                                    g.b, int(g.ldb), g.stride_b, &g.beta, g.c, int(g.ldc), g.stride_c, int(g.batch)),
          "cublasDgemmStridedBatched");
}

}  // namespace

std::vector<VendorGemm> cuda_vendor_gemms() {
  cublasHandle_t raw = nullptr;
  check(cublasCreate(&raw), "cublasCreate");
  std::shared_ptr<cublasContext> handle(raw, [](cublasHandle_t h) { cublasDestroy(h); });
  check(cublasSetMathMode(raw, CUBLAS_DEFAULT_MATH), "cublasSetMathMode");
  return {{"cublas", [handle](Queue& q, const GemmOperands<float>& g) { cublas(handle.get(), q, g); },
           [handle](Queue& q, const GemmOperands<double>& g) { cublas(handle.get(), q, g); }}};
}
#else
std::vector<VendorGemm> cuda_vendor_gemms() { return {}; }
#endif

}  // namespace portkern::bench
