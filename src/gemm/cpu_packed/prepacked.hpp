// cpu_packed with A packed ahead of time: the CPU side of portkern::gemm_pack_a / gemm_packed
// (portkern/gemm_packed.hpp), as MKL's cblas_sgemm_pack / cblas_sgemm_compute.
//
// What it computes
//   Column-major C = alpha * op(A) * op(B) + beta * C, then the epilogue (gemm/args.hpp), where op(A) (m x k)
//   was packed once by pack_whole_a and op(B) (k x n) is read in place.
//
// Layout of the packed A: depth blocks of `kc` (the last shorter); block b holds every MR-row panel of
//   op(A)[:, b*kc : b*kc + kc_b] as cpu_packed's pack_a lays out one block (panel r at r * MR * kc_b, element
//   (i, p) at [p * w + i], w = the panel's rows rounded up to whole vectors, zeros below). Block b starts at
//   b * kc * round_up(m, MR). A tail of padding keeps the prefetch of the last panel inside the allocation.
//
// Loops (per thread: a range of panels and of columns)
//   for jc (columns, NC so that a kc x NC block of B stays in L2)
//     for each depth block
//       for each panel of A (kc x MR from memory, then L2)
//         for jr (NR columns of B in place): micro-kernel, which prefetches the next panel into L2, one cache
//         line per step of k, spread over the first calls of the panel; on the part of the block the columns
//         need (B's depth(): image patches skip window rows of border only), beta on a tile's first part
//   The packing step of the ordinary path is gone, and the panels stream in behind the multiply; with few
//   columns (batch-1 convolutions: n = 49, 196) that packing cost as much as a third of the time.
//   512 x 49 x 4608, A from memory, 2 Xeon cores: 208 GFLOP/s without the prefetch, 278-333 with it.
#pragma once

#include <cstdint>

#include "gemm/args.hpp"
#include "portkern/gemm_packed.hpp"

namespace portkern::gemm_impl::cpu_packed {

using PackedLayout = GemmPanelLayout;

// The layout cpu_packed's active kernel set uses for an m x k op(A) of T.
template <class T>
PackedLayout packed_layout(std::int64_t m, std::int64_t k);

// Packs op(A) (trans_a: A is k x m, else m x k; column-major, lda) into dst (layout.elements elements).
template <class T>
void pack_whole_a(const PackedLayout& layout, bool trans_a, const T* a, std::int64_t lda, T* dst, int threads);

// C = alpha * packed op(A) * op(B) + beta * C, then the epilogue; n, m and k of the layout >= 1, alpha != 0
// (the caller scales C otherwise).
template <class T>
void run_prepacked(const PackedLayout& layout, const T* packed, bool trans_b, std::int64_t n, T alpha, const T* b,
                   std::int64_t ldb, T beta, T* c, std::int64_t ldc, int threads, const GemmEpilogue<T>& epilogue);

// Which runs of a patch (window rows) read the image and which only the zero border above or below it, so that
// the multiply skips the depth no column of a tile needs (a 3x3 window on a 7 x 7 image: 2 of the 21 rows of
// window taps a column of output pixels reads are border). Column j is output row y = (first_row + j / out_w)
// % out_h, whose window row r reads input row y * stride + r - pad_top: rows [0, height) are the image.
// out_w == 0 says nothing: every run may be needed.
struct PatchRows {
  std::int64_t first_row = 0, out_w = 0, out_h = 1, stride = 1, pad_top = 0, height = 0;
};

// B whose columns are image patches read in place (conv2d's im2col/in_place): column j starts at
// image + offsets[j], and its k elements are runs of `run` contiguous values, `run + skip` apart (the patch
// micro-kernels of portkern/kernel/cpu/microkernel.hpp).
template <class T>
struct PatchColumns {
  const T* image;
  const std::int64_t* offsets;   // one per column of B
  std::int64_t run, skip;
  std::int64_t column_step;      // offsets[j + 1] - offsets[j] of neighbours in an output row (> 0)
  PatchRows rows{};              // which runs (window rows) may read the image; by default all
};

// C = alpha * packed op(A) * B + beta * C, then the epilogue, with B's n columns the patches `b`; as
// run_prepacked otherwise.
template <class T>
void run_prepacked_patches(const PackedLayout& layout, const T* packed, std::int64_t n, T alpha,
                           const PatchColumns<T>& b, T beta, T* c, std::int64_t ldc, int threads,
                           const GemmEpilogue<T>& epilogue);

}  // namespace portkern::gemm_impl::cpu_packed
