// portkern::gemm_pack_a / gemm_packed (portkern/gemm_packed.hpp): the checks, and the CPU's panels
// (gemm/cpu_packed/prepacked.hpp) or, on a GPU, portkern::gemm on a copy of A.
#include <algorithm>

#include "gemm/cpu_packed/prepacked.hpp"
#include "gemm/fused.hpp"
#include "portkern/checked.hpp"
#include "portkern/error.hpp"
#include "portkern/gemm_packed.hpp"

namespace portkern {

namespace {

std::string at_least(const char* what, std::int64_t value) {
  return ">= " + std::string(what) + " = " + std::to_string(value);
}

}  // namespace

template <class T>
GemmPackedA<T> gemm_pack_a(Queue& queue, Op trans_a, std::int64_t m, std::int64_t k, const T* a, std::int64_t lda) {
  constexpr const char* fn = "portkern::gemm_pack_a";
  require(m >= 0, fn, "m", m, ">= 0");
  require(k >= 0, fn, "k", k, ">= 0");
  const bool ta = trans_a == Op::trans;
  const std::int64_t rows = std::max<std::int64_t>(1, ta ? k : m), cols = ta ? m : k;
  require(lda >= rows, fn, "lda", lda, at_least(ta ? "max(1, k)" : "max(1, m)", rows));
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
  constexpr const char* fn = "portkern::gemm_packed";
  const std::int64_t m = a.m(), k = a.k();
  const bool tb = trans_b == Op::trans;
  require(n >= 0, fn, "n", n, ">= 0");
  const std::int64_t rows_b = std::max<std::int64_t>(1, tb ? n : k);
  require(ldb >= rows_b, fn, "ldb", ldb, at_least(tb ? "max(1, n)" : "max(1, k)", rows_b));
  require(ldc >= std::max<std::int64_t>(1, m), fn, "ldc", ldc, at_least("max(1, m)", std::max<std::int64_t>(1, m)));
  if (m == 0 || n == 0) return true;
  if (!(a.device() == queue.device()) && (a.panels() || a.k() > 0))
    fail(fn, "the packed matrix was made for " + a.device().name() + ", the queue runs on " + queue.device().name());
  checked_bytes(checked_matrix_extent(m, n, ldc, 0, 1, fn, "c"), sizeof(T), fn, "c");
  queue.check_pointer(c, fn, "c");
  if (k > 0 && alpha != T(0)) {
    checked_bytes(checked_matrix_extent(tb ? n : k, tb ? k : n, ldb, 0, 1, fn, "b"), sizeof(T), fn, "b");
    queue.check_pointer(b, fn, "b");
  }
  if (epilogue.bias) queue.check_pointer(epilogue.bias, fn, "epilogue.bias");
  if (epilogue.residual) queue.check_pointer(epilogue.residual, fn, "epilogue.residual");
  if (queue.device().is_cpu()) {
    if (k == 0 || alpha == T(0)) {   // no panels to read (k == 0 packs none)
      for (std::int64_t j = 0; j < n; ++j)
        for (std::int64_t i = 0; i < m; ++i) c[i + j * ldc] = beta == T(0) ? T(0) : beta * c[i + j * ldc];
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
