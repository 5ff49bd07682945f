// OpenBLAS (cblas) and oneDNN (dnnl_sgemm, row-major) on the CPU. A batch is a loop of single calls: neither
// offers a strided-batched GEMM in these versions. OpenBLAS's pthread workers spin (yielding) for a while
// after each call; `rest` shuts them down (OpenBLAS starts them again on its next call, which the warm-up
// absorbs), so the next library's threads meet none of them.
#include <omp.h>

#include <cstdlib>

#include "bench/vendor_gemm.hpp"

#if PORTKERN_HAVE_OPENBLAS
#include <cblas.h>
extern "C" int blas_thread_shutdown_(void) __attribute__((weak));
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

// "Haswell (OPENBLAS_CORETYPE=Haswell; OpenBLAS 0.3.21 ...)": the core whose kernels run, and why.
std::string openblas_kernel() {
  std::string kernel = openblas_get_corename();
  if (const char* forced = std::getenv("OPENBLAS_CORETYPE")) kernel += std::string(" (OPENBLAS_CORETYPE=") + forced + ")";
  return kernel + "; " + openblas_get_config();
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

// "oneDNN 2.6.3 avx512_core_bf16": the instruction set oneDNN's kernels use on this CPU.
std::string onednn_isa() {
  const dnnl_version_t* v = dnnl_version();
  std::string isa;
  switch (dnnl_get_effective_cpu_isa()) {
    case dnnl_cpu_isa_sse41: isa = "sse41"; break;
    case dnnl_cpu_isa_avx: isa = "avx"; break;
    case dnnl_cpu_isa_avx2: isa = "avx2"; break;
    case dnnl_cpu_isa_avx512_mic: isa = "avx512_mic"; break;
    case dnnl_cpu_isa_avx512_mic_4ops: isa = "avx512_mic_4ops"; break;
    case dnnl_cpu_isa_avx512_core: isa = "avx512_core"; break;
    case dnnl_cpu_isa_avx512_core_vnni: isa = "avx512_core_vnni"; break;
    case dnnl_cpu_isa_avx512_core_bf16: isa = "avx512_core_bf16"; break;
    case dnnl_cpu_isa_avx512_core_amx: isa = "avx512_core_amx"; break;
    case dnnl_cpu_isa_avx2_vnni: isa = "avx2_vnni"; break;
    default: isa = "isa " + std::to_string(int(dnnl_get_effective_cpu_isa())); break;
  }
  return "oneDNN " + std::to_string(v->major) + "." + std::to_string(v->minor) + "." + std::to_string(v->patch) +
         " " + isa;
}
#endif

}  // namespace

std::vector<VendorGemm> cpu_vendor_gemms(int threads) {
  std::vector<VendorGemm> vendors;
#if PORTKERN_HAVE_OPENBLAS
  vendors.push_back({"openblas", "ieee", openblas_kernel(),
                     [threads](Queue&, const GemmOperands<float>& g) { openblas(threads, g); },
                     [threads](Queue&, const GemmOperands<double>& g) { openblas(threads, g); },
                     [] { if (blas_thread_shutdown_) blas_thread_shutdown_(); }});
#endif
#if PORTKERN_HAVE_DNNL
  // oneDNN 2.6's C API has dnnl_sgemm only: no double-precision reference from it.
  vendors.push_back({"onednn", "ieee", onednn_isa(),
                     [threads](Queue&, const GemmOperands<float>& g) { onednn(threads, g); }, nullptr, nullptr});
#endif
  (void)threads;
  return vendors;
}

}  // namespace portkern::bench
