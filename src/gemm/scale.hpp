// C = beta * C for a strided batch of m x n column-major matrices (beta == 0 writes zeros without reading
// C): GEMM's result when k == 0 or alpha == 0. Written once in the kernel model.
#pragma once

#include <cstdint>

#include "portkern/kernel/model.hpp"
#include "portkern/runtime/queue.hpp"

namespace portkern::gemm_impl {

template <class T>
struct ScaleMatrix {
  static constexpr int items = 256;
  using group_shape = kernel::Shape<items>;
  std::int64_t m, n;
  T beta;
  T* c;
  std::int64_t ldc, stride_c;

  // x: row blocks of every column, in column order; y: the batch.
  kernel::Range groups(std::int64_t batch) const { return {(m + items - 1) / items * n, batch, 1}; }

  template <class Group>
  PORTKERN_KERNEL void operator()(Group& g) const {
    const std::int64_t blocks_per_column = (m + items - 1) / items;
    const std::int64_t col = g.x() / blocks_per_column, row0 = g.x() % blocks_per_column * items;
    T* column = c + g.y() * stride_c + col * ldc;
    g.for_each_item([&](kernel::Item item) {
      const std::int64_t row = row0 + item.x;
      if (row < m) column[row] = beta == T(0) ? T(0) : beta * column[row];
    });
  }
};

template <class T>
void scale_cpu(const Queue& queue, const ScaleMatrix<T>& kernel, std::int64_t batch);
template <class T>
void scale_cuda(const Queue& queue, const ScaleMatrix<T>& kernel, std::int64_t batch);

// On the queue's device, whichever it is.
template <class T>
void scale(const Queue& queue, const ScaleMatrix<T>& kernel, std::int64_t batch) {
  if (queue.device().is_cpu()) return scale_cpu(queue, kernel, batch);
#if PORTKERN_HAVE_CUDA
  scale_cuda(queue, kernel, batch);
#endif
}

}  // namespace portkern::gemm_impl
