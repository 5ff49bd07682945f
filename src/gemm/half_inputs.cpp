// portkern::gemm on 16-bit inputs (portkern/blas.hpp): bfloat16 and float16 A and B, fp32 sums and C. The BLAS
// checks every GEMM makes and its quick returns, then
// - on a GPU: the cuda_wgmma family (cuda_wgmma/wgmma_gemm.hpp) for both types;
// - on the CPU, bfloat16: the BF16 family (bf16/bf16_gemm.hpp) with the fastest kernels this CPU runs;
// - on the CPU, float16: A and B widened to fp32 copies (exact) and the fp32 GEMM. No x86 unit sums fp16 products
//   in fp32 (AVX512-FP16's FMAs round to fp16), so the fp32 GEMM on the widened operands is the fast exact route.
#include <type_traits>
#include <vector>

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

using i64 = std::int64_t;

const gemm_impl::bf16::KernelSet& fastest() {
  static const gemm_impl::bf16::KernelSet kernels = gemm_impl::bf16::kernels_here().front();
  return kernels;
}

// op(X) of each problem (rows x cols, stored with its leading dimension) widened into a dense fp32 copy.
std::vector<float> widened(const float16* x, bool trans, i64 rows, i64 cols, i64 ld, i64 stride, i64 batch) {
  const i64 stored_rows = trans ? cols : rows, stored_cols = trans ? rows : cols;
  std::vector<float> out(std::size_t(stored_rows * stored_cols * batch));
  for (i64 p = 0; p < batch; ++p)
    for (i64 j = 0; j < stored_cols; ++j)
      for (i64 i = 0; i < stored_rows; ++i)
        out[std::size_t((p * stored_cols + j) * stored_rows + i)] = float(x[p * stride + j * ld + i]);
  return out;
}

void cpu_product(Queue& queue, bool ta, bool tb, const gemm_impl::GemmArgs<float, bfloat16>& p) {
  gemm_impl::bf16::run(fastest(), ta, tb, p, queue.cpu_threads());
}

void cpu_product(Queue& queue, bool ta, bool tb, const gemm_impl::GemmArgs<float, float16>& p) {
  const std::vector<float> a = widened(p.a, ta, p.m, p.k, p.lda, p.stride_a, p.batch);
  const std::vector<float> b = widened(p.b, tb, p.k, p.n, p.ldb, p.stride_b, p.batch);
  const i64 lda = ta ? p.k : p.m, ldb = tb ? p.n : p.k;
  gemm_strided_batched<float>(queue, ta ? Op::trans : Op::none, tb ? Op::trans : Op::none, p.m, p.n, p.k, p.alpha,
                              a.data(), lda, p.m * p.k, b.data(), ldb, p.k * p.n, p.beta, p.c, p.ldc, p.stride_c,
                              p.batch);
}

template <class In>
void gemm_half_inputs(Queue& queue, Op trans_a, Op trans_b, const gemm_impl::GemmArgs<float, In>& p, const char* fn) {
  const bool ta = trans_a == Op::trans, tb = trans_b == Op::trans;
  gemm_impl::check_gemm_arguments(queue, ta, tb, p, fn);
  if (p.m == 0 || p.n == 0 || p.batch == 0) return;
  if (p.k == 0 || p.alpha == 0.f) {
    if (p.beta != 1.f)
      gemm_impl::scale(queue, gemm_impl::ScaleMatrix<float>{p.m, p.n, p.beta, p.c, p.ldc, p.stride_c}, p.batch);
    return;
  }
  if (queue.device().is_cpu()) return cpu_product(queue, ta, tb, p);
#if PORTKERN_HAVE_CUDA
  using gemm_impl::cuda_wgmma::Input;
  gemm_impl::cuda_wgmma::run(queue, std::is_same_v<In, bfloat16> ? Input::bf16 : Input::f16,
                             gemm_impl::cuda_wgmma::problem_of(ta, tb, p));
#else
  fail(fn, "this build has no GPU back end for " + queue.device().name());
#endif
}

}  // namespace

std::string gemm_bf16_kernel() { return fastest().name; }

// The public overloads for each input type: strided batch, one problem, row-major.
#define PORTKERN_HALF_INPUTS(In, name)                                                                                  \
  void gemm_strided_batched(Queue& queue, Op trans_a, Op trans_b, i64 m, i64 n, i64 k, float alpha, const In* a,      \
                            i64 lda, i64 stride_a, const In* b, i64 ldb, i64 stride_b, float beta, float* c, i64 ldc, \
                            i64 stride_c, i64 batch) {                                                                 \
    gemm_half_inputs<In>(queue, trans_a, trans_b,                                                                      \
                         {m, n, k, alpha, a, lda, stride_a, b, ldb, stride_b, beta, c, ldc, stride_c, batch},          \
                         "portkern::gemm (" name ")");                                                                 \
  }                                                                                                                    \
  void gemm(Queue& queue, Op trans_a, Op trans_b, i64 m, i64 n, i64 k, float alpha, const In* a, i64 lda,              \
            const In* b, i64 ldb, float beta, float* c, i64 ldc) {                                                     \
    gemm_strided_batched(queue, trans_a, trans_b, m, n, k, alpha, a, lda, 0, b, ldb, 0, beta, c, ldc, 0, 1);          \
  }                                                                                                                    \
  void gemm(Queue& queue, Layout layout, Op trans_a, Op trans_b, i64 m, i64 n, i64 k, float alpha, const In* a,        \
            i64 lda, const In* b, i64 ldb, float beta, float* c, i64 ldc) {                                            \
    if (layout == Layout::col_major) return gemm(queue, trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc); \
    gemm(queue, trans_b, trans_a, n, m, k, alpha, b, ldb, a, lda, beta, c, ldc); /* C^T = op(B)^T op(A)^T */         \
  }
PORTKERN_HALF_INPUTS(bfloat16, "bfloat16")
PORTKERN_HALF_INPUTS(float16, "float16")
#undef PORTKERN_HALF_INPUTS

}  // namespace portkern
