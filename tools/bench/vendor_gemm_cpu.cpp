// OpenBLAS (cblas) and oneDNN (dnnl_sgemm, row-major) on the CPU. A batch is a loop of single calls: neither
// offers a strided-batched GEMM in these versions.
#include <omp.h>

#include "bench/vendor_gemm.hpp"

#if PORTKERN_HAVE_OPENBLAS
#include <cblas.h>
#endif
#if PORTKERN_HAVE_DNNL
#include <dnnl.h>
#endif

namespace portkern::bench {

namespace {

#if PORTKERN_HAVE_OPENBLAS
template <class T>
void openblas(int threads, const GemmOperands<T>& g) {
  openblas_set_num_threads(threads);
  for (std::int64_t i = 0; i < g.batch; ++i) {
    const auto ta = g.ta ? CblasTrans : CblasNoTrans, tb = g.tb ? CblasTrans : CblasNoTrans;
    if constexpr (std::is_same_v<T, float>)
      cblas_sgemm(CblasColMajor, ta, tb, g.m, g.n, g.k, g.alpha, g.a + i * g.stride_a, g.lda, g.b + i * g.stride_b,
                  g.ldb, g.beta, g.c + i * g.stride_c, g.ldc);
    else
      cblas_dgemm(CblasColMajor, ta, tb, g.m, g.n, g.k, g.alpha, g.a + i * g.stride_a, g.lda, g.b + i * g.stride_b,
                  g.ldb, g.beta, g.c + i * g.stride_c, g.ldc);
  }
}
#endif

#if PORTKERN_HAVE_DNNL
// Column-major C = op(A) op(B) is row-major C^T = op(B)^T op(A)^T.
void onednn(int threads, const GemmOperands<float>& g) {
  omp_set_num_threads(threads);
  for (std::int64_t i = 0; i < g.batch; ++i) {
    const char ta = g.tb ? 'T' : 'N', tb = g.ta ? 'T' : 'N';
    dnnl_sgemm(ta, tb, g.n, g.m, g.k, g.alpha, g.b + i * g.stride_b, g.ldb, g.a + i * g.stride_a, g.lda, g.beta,
               g.c + i * g.stride_c, g.ldc);
  }
}
#endif

}  // namespace

std::vector<VendorGemm> cpu_vendor_gemms(int threads) {
  std::vector<VendorGemm> vendors;
#if PORTKERN_HAVE_OPENBLAS
  vendors.push_back({"openblas", [threads](Queue&, const GemmOperands<float>& g) { openblas(threads, g); },
                     [threads](Queue&, const GemmOperands<double>& g) { openblas(threads, g); }});
#endif
#if PORTKERN_HAVE_DNNL
  // oneDNN 2.6's C API has dnnl_sgemm only: no double-precision reference from it.
  vendors.push_back({"onednn", [threads](Queue&, const GemmOperands<float>& g) { onednn(threads, g); }, nullptr});
#endif
  (void)threads;
  return vendors;
}

}  // namespace portkern::bench
