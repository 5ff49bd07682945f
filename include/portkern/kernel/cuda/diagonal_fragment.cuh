// The CUDA lowering of diagonal_fragment (portkern/kernel/diagonal_fragment.hpp): thread c holds column c's
// Rows sums in registers.
#pragma once

#include <cstdint>

#include "portkern/kernel/model.hpp"

namespace portkern::kernel::cuda {

template <class T, int Rows>
struct DiagonalFragment {
  static_assert(Rows >= 1, "a diagonal fragment needs a one-dimensional group and at least one row");
  std::int64_t columns;
  T sums[Rows];
  // Whether a kernel should call fma_window rather than fma where both apply (the CPU lowering's comment): yes.
  // Depthwise segments of 4 pixels ran 1.02-1.04x as fast with it on an H200 (conv2d/depthwise/depthwise.hpp).
  static constexpr bool prefers_windows = true;

  template <class Group>
  __device__ __forceinline__ DiagonalFragment(const Group&, std::int64_t columns) : columns(columns) {
#pragma unroll
    for (int r = 0; r < Rows; ++r) sums[r] = T(0);
  }

  // sums(r, c) += sum over t < batch of x[t * x_step + r * row_step + c] * w[t * w_step + c], for this thread's c.
  template <class Group>
  __device__ __forceinline__ void fma(const Group&, const T* x, std::int64_t row_step, const T* w, std::int64_t batch,
                                      std::int64_t x_step, std::int64_t w_step) {
    const int c = threadIdx.x;
    if (c >= columns) return;
    x += c;
    w += c;
    for (std::int64_t t = 0; t < batch; ++t) {
      if (t > 0) x += x_step, w += w_step;   // between products only: one step past the last may overflow
      const T weight = *w;
#pragma unroll
      for (int r = 0; r < Rows; ++r) sums[r] += x[r * row_step] * weight;
    }
  }

  // The sliding-window product (the CPU lowering's comment): the Taps weights and the Ratio * (Rows - 1) + Taps
  // inputs of this thread's column each loaded once, unrolled (fma's loop over a batch of run-time length costs
  // a loop count, two 64-bit pointer steps and two loads per FMA).
  template <int Taps, int Ratio, class Group>
  __device__ __forceinline__ void fma_window(const Group&, const T* x, std::int64_t step, const T* w,
                                             std::int64_t w_step) {
    static_assert(Taps >= 1 && Ratio >= 1, "a window has taps, and its rows are at least one tap apart");
    const int c = threadIdx.x;
    if (c >= columns) return;
    x += c;
    w += c;
    T weight[Taps];
#pragma unroll
    for (int t = 0; t < Taps; ++t) weight[t] = w[t * w_step];
#pragma unroll
    for (int i = 0; i < Ratio * (Rows - 1) + Taps; ++i) {
      const T input = x[i * step];
#pragma unroll
      for (int r = 0; r < Rows; ++r)
        if (i - Ratio * r >= 0 && i - Ratio * r < Taps) sums[r] += input * weight[i - Ratio * r];
    }
  }

  // The block-diagonal product of groups of G input and G output channels (the CPU lowering's comment).
  template <int G, class Group>
  __device__ __forceinline__ void fma_block(const Group& g, const T* x, std::int64_t row_step, const T* w,
                                            std::int64_t w_row, std::int64_t batch, std::int64_t x_step,
                                            std::int64_t w_step) {
    if constexpr (G == 1) return fma(g, x, row_step, w, batch, x_step, w_step);   // depthwise: the plain product
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
        for (int r = 0; r < Rows; ++r) sums[r] += x[r * row_step + j] * weight;
      }
    }
  }

  template <class Group, class F>
  __device__ __forceinline__ void for_each(const Group&, F&& f) const {
    const int c = threadIdx.x;
    if (c >= columns) return;
#pragma unroll
    for (int r = 0; r < Rows; ++r) f(Item{c, 0, 0, c}, r, sums[r]);
  }
};

}  // namespace portkern::kernel::cuda
