// diagonal_fragment<T, Rows, Group>: a group's accumulator of Rows x (its items) sums updated by diagonal
// products, the multiply of depthwise (per-channel) convolutions, as oneDNN's brdgmm ("batch-reduce diagonal
// GEMM") names it:
//
//   kernel::diagonal_fragment<float, P, Group> acc(g, columns);   // zeroed; column c < columns is item c's
//   acc.fma(g, x, row_step, w, batch, x_step, w_step);   // the batch-reduce: for c < columns, r < P,
//       // acc(r, c) += sum over t < batch of x[t * x_step + r * row_step + c] * w[t * w_step + c]
//   acc.fma_batches(g, x, row_step, w, batches, x_batch, w_batch, batch, x_step, w_step);   // batches of them:
//       // acc(r, c) += sum over u < batches, t < batch of x[u * x_batch + t * x_step + r * row_step + c]
//       //                                                  * w[u * w_batch + t * w_step + c]
//   acc.fma_window<Taps, Ratio>(g, x, step, w, w_step);   // a sliding window: for c < columns, r < P,
//       // acc(r, c) += sum over t < Taps of x[(Ratio * r + t) * step + c] * w[t * w_step + c]
//   acc.for_each(g, [&](kernel::Item item, int r, float sum) { ... });   // a phase over the sums
//
// A depthwise convolution calls fma_batches once per window: its rows inside the image are the batches, a
// row's taps the batch, x_step the step between them in the image, w_step in the filter; the rows are P output
// pixels. Where a row's taps all lie inside the image, its width is a constant and the stride a multiple (Ratio)
// of the dilation, it calls fma_window per window row instead where the back end's fragment says that pays (its
// static constexpr bool prefers_windows): the pixels' windows overlap, and each input is read once for every tap
// that uses it (P = 4, 3 taps, stride 1: 6 input reads instead of 12), the taps unrolled.
// Every call is group-scope and uniform (made by every item with the same arguments). The group is
// one-dimensional (Shape<X>): its X items are the columns, or with Lanes > 1 item c holds the Lanes columns
// [Lanes * c, Lanes * c + Lanes), X * Lanes in all, read as one vec<T, Lanes> (CUDA: a thread's 16-byte load
// of 4 floats, which amortises its address arithmetic over 4 channels); then x, w, every step and `columns`
// are multiples of Lanes elements and x and w aligned to Lanes * sizeof(T) bytes, and for_each's item is the
// column (item.x = c). x's rows are row_step apart (pixels of an NHWC image, stride * channels apart); its
// columns and w's are contiguous.
//
// What each back end lowers it to:
//   CPU   the sums in SIMD registers across the calls: Rows x ceil(X * Lanes / lanes) vectors of the widest
//         width the build targets (AVX-512: 16 floats), each product of the batch one vector load of w and Rows
//         loads and FMAs per vector of columns, vectors past `columns` skipped, the last one shifted back to end
//         at `columns` (portkern/kernel/cpu/diagonal_fragment.hpp); fma_batches' loops over both levels inside.
//         Without it a phase per tap kept every sum in memory (a load and a store per FMA): MobileNetV2's
//         depthwise layers ran at 0.20-0.52 of oneDNN on 2 Xeon cores.
//         fma_window: per vector of columns, Taps weight vectors and Ratio * (Rows - 1) + Taps input vectors;
//         prefers_windows is false (on Zen 5 the depthwise layers ran 0.975x as fast with it).
//   CUDA  item c's Rows x Lanes sums in its registers, one vec<T, Lanes> load of w per product
//         (portkern/kernel/cuda/diagonal_fragment.cuh); fma_window: its Taps weights and window inputs in
//         registers, each loaded once.
#pragma once

namespace portkern::kernel {

template <class T, int Rows, class Group, int Lanes = 1>
using diagonal_fragment = typename Group::template diagonal_fragment_type<T, Rows, Lanes>;

}  // namespace portkern::kernel
