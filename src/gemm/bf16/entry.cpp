// portkern::gemm on bfloat16 inputs (portkern/blas.hpp): the BLAS checks every GEMM makes, quick returns, then
// on the CPU the BF16 family (bf16_gemm.hpp) with the fastest kernels this CPU runs, on a GPU the wgmma family
// (cuda_wgmma/wgmma_gemm.hpp).
#include "gemm/bf16/bf16_gemm.hpp"
#include "gemm/checks.hpp"
#include "gemm/scale.hpp"
#include "portkern/blas.hpp"
#include "portkern/error.hpp"

#if PORTKERN_HAVE_CUDA
#include "gemm/cuda_wgmma/wgmma_gemm.hpp"
#endif

namespace portkern {

namespace {
const gemm_impl::bf16::KernelSet& fastest() {
  static const gemm_impl::bf16::KernelSet kernels = gemm_impl::bf16::kernels_here().front();
  return kernels;
}
}  // namespace

void gemm_strided_batched(Queue& queue, Op trans_a, Op trans_b, std::int64_t m, std::int64_t n, std::int64_t k,
                          float alpha, const bfloat16* a, std::int64_t lda, std::int64_t stride_a, const bfloat16* b,
                          std::int64_t ldb, std::int64_t stride_b, float beta, float* c, std::int64_t ldc,
                          std::int64_t stride_c, std::int64_t batch) {
  constexpr const char* fn = "portkern::gemm (bfloat16)";
  const gemm_impl::GemmArgs<float, bfloat16> p{m, n, k, alpha, a, lda, stride_a, b, ldb, stride_b, beta, c, ldc,
                                               stride_c, batch};
  const bool ta = trans_a == Op::trans, tb = trans_b == Op::trans;
  gemm_impl::check_gemm_arguments(queue, ta, tb, p, fn);
  if (m == 0 || n == 0 || batch == 0) return;
  const bool cpu = queue.device().is_cpu();
  if (k == 0 || alpha == 0.f) {
    if (beta == 1.f) return;
    const gemm_impl::ScaleMatrix<float> scale{m, n, beta, c, ldc, stride_c};
#if PORTKERN_HAVE_CUDA
    if (!cpu) return gemm_impl::scale_cuda(queue, scale, batch);
#endif
    return gemm_impl::scale_cpu(queue, scale, batch);
  }
  if (cpu) return gemm_impl::bf16::run(fastest(), ta, tb, p, queue.cpu_threads());
#if PORTKERN_HAVE_CUDA
  gemm_impl::cuda_wgmma::run(queue, gemm_impl::cuda_wgmma::Input::bf16,
                             {ta, tb, m, n, k, alpha, a, lda, stride_a, b, ldb, stride_b, beta, c, ldc, stride_c, batch});
#else
  fail(fn, "this build has no GPU back end for " + queue.device().name());
#endif
}

void gemm(Queue& queue, Op trans_a, Op trans_b, std::int64_t m, std::int64_t n, std::int64_t k, float alpha,
          const bfloat16* a, std::int64_t lda, const bfloat16* b, std::int64_t ldb, float beta, float* c,
          std::int64_t ldc) {
  gemm_strided_batched(queue, trans_a, trans_b, m, n, k, alpha, a, lda, 0, b, ldb, 0, beta, c, ldc, 0, 1);
}

std::string gemm_bf16_kernel() { return fastest().name; }

void gemm(Queue& queue, Layout layout, Op trans_a, Op trans_b, std::int64_t m, std::int64_t n, std::int64_t k,
          float alpha, const bfloat16* a, std::int64_t lda, const bfloat16* b, std::int64_t ldb, float beta, float* c,
          std::int64_t ldc) {
  if (layout == Layout::col_major) return gemm(queue, trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
  gemm(queue, trans_b, trans_a, n, m, k, alpha, b, ldb, a, lda, beta, c, ldc);   // C^T = op(B)^T op(A)^T
}

}  // namespace portkern
