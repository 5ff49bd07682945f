// The CUDA lowering of diagonal_fragment (portkern/kernel/diagonal_fragment.hpp): thread c holds the Rows sums
// of its Lanes columns [Lanes * c, Lanes * c + Lanes) in registers, and reads them as one vec<T, Lanes> (with
// 4 floats, a 16-byte load: one address for 4 products).
#pragma once

#include <cstdint>

#include "portkern/kernel/model.hpp"

namespace portkern::kernel::cuda {

template <class T, int Rows, int Lanes = 1>
struct DiagonalFragment {
  static_assert(Rows >= 1, "a diagonal fragment needs a one-dimensional group and at least one row");
  static_assert(Lanes >= 1 && (Lanes & (Lanes - 1)) == 0, "a thread's columns are a vector: 1, 2, 4, ...");
  using Vector = vec<T, Lanes>;
  std::int64_t columns;
  T sums[Rows][Lanes];
  // Whether a kernel should call fma_window rather than fma where both apply (the CPU lowering's comment): yes.
  // Depthwise segments of 4 pixels ran 1.02-1.04x as fast with it on an H200 (conv2d/depthwise/depthwise.hpp).
  static constexpr bool prefers_windows = true;

  template <class Group>
  __device__ __forceinline__ DiagonalFragment(const Group&, std::int64_t columns) : columns(columns) {
#pragma unroll
    for (int r = 0; r < Rows; ++r)
#pragma unroll
      for (int l = 0; l < Lanes; ++l) sums[r][l] = T(0);
  }

  // This thread's first column, or -1 where it has none (columns is a multiple of Lanes).
  __device__ __forceinline__ std::int64_t first_column() const {
    const std::int64_t c = std::int64_t(threadIdx.x) * Lanes;
    return c < columns ? c : -1;
  }

  // Row r's sums += input * weight, lane by lane.
  __device__ __forceinline__ void add(int r, const Vector& input, const Vector& weight) {
#pragma unroll
    for (int l = 0; l < Lanes; ++l) sums[r][l] += input[l] * weight[l];
  }

  // sums(r, c) += sum over t < batch of x[t * x_step + r * row_step + c] * w[t * w_step + c], for this thread's c.
  template <class Group>
  __device__ __forceinline__ void fma(const Group& g, const T* x, std::int64_t row_step, const T* w,
                                      std::int64_t batch, std::int64_t x_step, std::int64_t w_step) {
    fma_batches(g, x, row_step, w, 1, 0, 0, batch, x_step, w_step);
  }

  // fma over `batches` batches, batch u's x and w at u * x_batch and u * w_batch (the model's comment).
  template <class Group>
  __device__ __forceinline__ void fma_batches(const Group&, const T* x, std::int64_t row_step, const T* w,
                                              std::int64_t batches, std::int64_t x_batch, std::int64_t w_batch,
                                              std::int64_t batch, std::int64_t x_step, std::int64_t w_step) {
    const std::int64_t c = first_column();
    if (c < 0) return;
    for (std::int64_t u = 0; u < batches; ++u) {
      const T* xu = x + u * x_batch + c;
      const T* wu = w + u * w_batch + c;
      for (std::int64_t t = 0; t < batch; ++t) {
        if (t > 0) xu += x_step, wu += w_step;   // between products only: one step past the last may overflow
        const Vector weight = Vector::load(wu);
#pragma unroll
        for (int r = 0; r < Rows; ++r) add(r, Vector::load(xu + r * row_step), weight);
      }
    }
  }

  // The sliding-window product (the CPU lowering's comment): the Taps weights and the Ratio * (Rows - 1) + Taps
  // inputs of this thread's columns each loaded once, unrolled (fma's loop over a batch of run-time length costs
  // a loop count, two 64-bit pointer steps and two loads per FMA).
  template <int Taps, int Ratio, class Group>
  __device__ __forceinline__ void fma_window(const Group&, const T* x, std::int64_t step, const T* w,
                                             std::int64_t w_step) {
    static_assert(Taps >= 1 && Ratio >= 1, "a window has taps, and its rows are at least one tap apart");
    const std::int64_t c = first_column();
    if (c < 0) return;
    x += c;
    w += c;
    Vector weight[Taps];
#pragma unroll
    for (int t = 0; t < Taps; ++t) weight[t] = Vector::load(w + t * w_step);
#pragma unroll
    for (int i = 0; i < Ratio * (Rows - 1) + Taps; ++i) {
      const Vector input = Vector::load(x + i * step);
#pragma unroll
      for (int r = 0; r < Rows; ++r)
        if (i - Ratio * r >= 0 && i - Ratio * r < Taps) add(r, input, weight[i - Ratio * r]);
    }
  }

  // The block-diagonal product of groups of G input and G output channels (the CPU lowering's comment); a
  // column a thread.
  template <int G, class Group>
  __device__ __forceinline__ void fma_block(const Group& g, const T* x, std::int64_t row_step, const T* w,
                                            std::int64_t w_row, std::int64_t batch, std::int64_t x_step,
                                            std::int64_t w_step) {
    if constexpr (G == 1) return fma(g, x, row_step, w, batch, x_step, w_step);   // depthwise: the plain product
    static_assert(G == 1 || Lanes == 1, "block-diagonal products take a column a thread");
    const int c = threadIdx.x;
    if (c >= columns) return;
    x += G * (c / G);
    w += c;
    for (std::int64_t t = 0; t < batch; ++t) {
      if (t > 0) x += x_step, w += w_step;
#pragma unroll
      for (int j = 0; j < G; ++j) {
        const T weight = w[j * w_row];
#pragma unroll
        for (int r = 0; r < Rows; ++r) sums[r][0] += x[r * row_step + j] * weight;
      }
    }
  }

  // f(item c, r, sums(r, c)) for this thread's columns c (item.x = c).
  template <class Group, class F>
  __device__ __forceinline__ void for_each(const Group&, F&& f) const {
    const std::int64_t c = first_column();
    if (c < 0) return;
#pragma unroll
    for (int r = 0; r < Rows; ++r)
#pragma unroll
      for (int l = 0; l < Lanes; ++l) f(Item{int(c) + l, 0, 0, int(c) + l}, r, sums[r][l]);
  }
};

}  // namespace portkern::kernel::cuda
