// GEMM with a matrix packed once for many products, as MKL's cblas_sgemm_pack / cblas_sgemm_compute: a
// network's weights, multiplied by a new activation matrix on every call.
//
//   GemmPackedA<float> w = gemm_pack_a(queue, Op::none, m, k, a, lda);      // op(A): m x k, once
//   gemm_packed(queue, Op::none, n, 1.f, w, b, ldb, 0.f, c, ldc);           // C = alpha op(A) op(B) + beta C
//
// On the CPU, op(A) is laid out at pack time in the panels the CPU GEMM's micro-kernels read
// (src/gemm/cpu_packed/prepacked.hpp), and each product streams them from memory with prefetch instead of
// packing them again. When it wins: products with few columns (n up to a few hundred: batch-1 and small-batch
// convolutions and linear layers), where the ordinary path's packing of A costs up to a third of the time
// (512 x 49 x 4608 on 2 Xeon cores, A from memory: docs/performance.md). On a GPU the packed matrix is a copy
// of A and products run through portkern::gemm at the given precision.
//
// The packed matrix does not refer to `a` after gemm_pack_a returns. Products follow BLAS semantics: beta == 0
// does not read C, n == 0 returns at once, k == 0 gives beta * C. Errors name the argument and its value.
#pragma once

#include <cstdint>

#include "portkern/blas.hpp"
#include "portkern/runtime/buffer.hpp"
#include "portkern/runtime/device_class.hpp"

namespace portkern {

// Where the CPU's packed panels lie (src/gemm/cpu_packed/prepacked.hpp explains the layout).
struct GemmPanelLayout {
  CpuIsa isa = CpuIsa::generic;   // the micro-kernel set the panels were packed for
  std::int64_t m = 0, k = 0;
  std::int64_t kc = 1;            // depth block
  std::int64_t mr = 1;            // panel rows
  std::int64_t padded_m = 0;      // m rounded up to whole panels
  std::int64_t elements = 0;      // what the packed buffer holds, padding included
};

template <class T>
class GemmPackedA {
 public:
  GemmPackedA() = default;
  std::int64_t m() const { return m_; }
  std::int64_t k() const { return k_; }
  const Device& device() const { return data_.device(); }
  // On the CPU: the panels, laid out as layout() says. On a GPU: a copy of A as stored (op() and ld()).
  const T* data() const { return data_.data(); }
  bool panels() const { return panels_; }
  const GemmPanelLayout& layout() const { return layout_; }
  Op op() const { return op_; }
  std::int64_t ld() const { return ld_; }

 private:
  template <class U>
  friend GemmPackedA<U> gemm_pack_a(Queue&, Op, std::int64_t, std::int64_t, const U*, std::int64_t);
  std::int64_t m_ = 0, k_ = 0;
  Buffer<T> data_;
  bool panels_ = false;
  GemmPanelLayout layout_;
  Op op_ = Op::none;
  std::int64_t ld_ = 1;
};

// Packs op(A) (op none: A is m x k, lda >= max(1, m); trans: A is k x m, lda >= max(1, k)) for the queue's
// device.
template <class T>
GemmPackedA<T> gemm_pack_a(Queue& queue, Op trans_a, std::int64_t m, std::int64_t k, const T* a, std::int64_t lda);

// C (m x n, ldc >= max(1, m)) = alpha * op(A) * op(B) + beta * C with the packed op(A) (m x k); op(B) is
// k x n (op none: ldb >= max(1, k); trans: B is n x k, ldb >= max(1, n)). `precision` applies on a GPU (the
// CPU's products are IEEE fp32, which every precision allows).
template <class T>
void gemm_packed(Queue& queue, Op trans_b, std::int64_t n, T alpha, const GemmPackedA<T>& a, const T* b,
                 std::int64_t ldb, T beta, T* c, std::int64_t ldc, Precision precision = Precision::accurate);

}  // namespace portkern
