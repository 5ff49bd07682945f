// portkern::gemm_pack_a / gemm_packed (portkern/gemm_packed.hpp): the checks, and the CPU's panels
// (gemm/cpu_packed/prepacked.hpp) or, on a GPU, portkern::gemm on a copy of A.
#include <algorithm>

#include "gemm/checks.hpp"
#include "gemm/cpu_packed/prepacked.hpp"
#include "gemm/fused.hpp"
#include "gemm/scale.hpp"
#include "portkern/checked.hpp"
#include "portkern/error.hpp"
#include "portkern/gemm_packed.hpp"

namespace portkern {

template <class T>
GemmPackedA<T> gemm_pack_a(Queue& queue, Op trans_a, std::int64_t m, std::int64_t k, const T* a, std::int64_t lda) {
  constexpr const char* fn = "portkern::gemm_pack_a";
  require(m >= 0, fn, "m", m, ">= 0");
  require(k >= 0, fn, "k", k, ">= 0");
  const bool ta = trans_a == Op::trans;
  const std::int64_t rows = std::max<std::int64_t>(1, ta ? k : m), cols = ta ? m : k;
  require(lda >= rows, fn, "lda", lda, gemm_impl::at_least(ta ? "max(1, k)" : "max(1, m)", rows));
  GemmPackedA<T> packed;
  packed.m_ = m;
  packed.k_ = k;
  packed.op_ = trans_a;
  packed.ld_ = lda;
  if (m == 0 || k == 0) return packed;
  const std::int64_t extent = checked_matrix_extent(ta ? k : m, cols, lda, 0, 1, fn, "a");
  checked_bytes(extent, sizeof(T), fn, "a");
  queue.check_pointer(a, fn, "a");
  if (queue.device().is_cpu()) {
    packed.layout_ = gemm_impl::cpu_packed::packed_layout<T>(m, k);
    packed.data_ = Buffer<T>(queue.device(), packed.layout_.elements, "packed GEMM operand");
    packed.panels_ = true;
    gemm_impl::cpu_packed::pack_whole_a(packed.layout_, ta, a, lda, packed.data_.data(), queue.cpu_threads());
  } else {
    packed.data_ = Buffer<T>(queue.device(), extent, "packed GEMM operand");
    queue.copy(packed.data_.data(), a, std::size_t(extent));
  }
  return packed;
}

namespace gemm_impl {

template <class T>
bool gemm_packed_with_epilogue(Queue& queue, Op trans_b, std::int64_t n, T alpha, const GemmPackedA<T>& a,
                               const T* b, std::int64_t ldb, T beta, T* c, std::int64_t ldc,
                               const GemmEpilogue<T>& epilogue, Precision precision) {
  const std::int64_t m = a.m(), k = a.k();
  const bool tb = trans_b == Op::trans;
  // The checks of every GEMM, A being the packed panels (leading dimension m).
  GemmArgs<T> p{m, n, k, alpha, a.data(), std::max<std::int64_t>(1, m), 0, b, ldb, 0, beta, c, ldc, 0, 1};
  p.epilogue = epilogue;
  check_gemm_arguments(queue, false, tb, p, "portkern::gemm_packed");
  if (m == 0 || n == 0) return true;
  if (k > 0 && !(a.device() == queue.device()))
    fail("portkern::gemm_packed",
         "the packed matrix was made for " + a.device().name() + ", the queue runs on " + queue.device().name());
  if (queue.device().is_cpu()) {
    if (k == 0 || alpha == T(0)) {   // no panels to read: C = beta * C
      scale_cpu(queue, ScaleMatrix<T>{m, n, beta, c, ldc, 0}, 1);
      epilogue.apply(m, n, c, ldc);
      return true;
    }
    cpu_packed::run_prepacked(a.layout(), a.data(), tb, n, alpha, b, ldb, beta, c, ldc, queue.cpu_threads(), epilogue);
    return true;
  }
  const GemmChoice choice{"", "", precision};
  if constexpr (std::is_same_v<T, float>)
    return gemm_with_epilogue(queue, a.op(), trans_b, m, n, k, alpha, a.data(), a.ld(), b, ldb, beta, c, ldc,
                              epilogue, choice);
  gemm<T>(queue, a.op(), trans_b, m, n, k, alpha, a.data(), a.ld(), b, ldb, beta, c, ldc, choice);
  return false;
}

}  // namespace gemm_impl

template <class T>
void gemm_packed(Queue& queue, Op trans_b, std::int64_t n, T alpha, const GemmPackedA<T>& a, const T* b,
                 std::int64_t ldb, T beta, T* c, std::int64_t ldc, Precision precision) {
  gemm_impl::gemm_packed_with_epilogue(queue, trans_b, n, alpha, a, b, ldb, beta, c, ldc, gemm_impl::GemmEpilogue<T>{},
                                       precision);
}

template GemmPackedA<float> gemm_pack_a<float>(Queue&, Op, std::int64_t, std::int64_t, const float*, std::int64_t);
template GemmPackedA<double> gemm_pack_a<double>(Queue&, Op, std::int64_t, std::int64_t, const double*, std::int64_t);
template void gemm_packed<float>(Queue&, Op, std::int64_t, float, const GemmPackedA<float>&, const float*, std::int64_t,
                                 float, float*, std::int64_t, Precision);
template void gemm_packed<double>(Queue&, Op, std::int64_t, double, const GemmPackedA<double>&, const double*,
                                  std::int64_t, double, double*, std::int64_t, Precision);
template bool gemm_impl::gemm_packed_with_epilogue<float>(Queue&, Op, std::int64_t, float, const GemmPackedA<float>&,
                                                          const float*, std::int64_t, float, float*, std::int64_t,
                                                          const gemm_impl::GemmEpilogue<float>&, Precision);

}  // namespace portkern
