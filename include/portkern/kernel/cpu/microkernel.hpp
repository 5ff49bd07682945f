// The CPU's matrix-multiply micro-kernels: the only per-ISA code of the packed GEMM, behind one signature, as
// in BLIS. The portable frame (src/gemm/cpu_packed/cpu_packed.cpp: blocking loops, packing, GEMV, threads) calls them
// for every MR x NR tile of C; the kernel model's matrix fragments lower to them on the CPU.
//
// One micro-kernel computes an MR x NR tile of C, or an edge of it:
//
//   C[0:rows, 0:cols] = alpha * sum_{p < k} A(0:rows, p) * B(p, 0:cols) + beta * C[0:rows, 0:cols]
//
//   k          the depth (any k >= 0; k == 0 gives beta * C)
//   a, a_step  column p of the A micro-panel: `vectors` SIMD vectors (vectors * lanes rows) at a + p * a_step.
//              A packed panel has a_step = vectors * lanes and zero rows below `rows`. Unpacked A (a_step =
//              lda) only where the ISA's Blocking::reads_unpacked_a says its kernels read no row past `rows`.
//   b, b_step  b_columns == false: B(p, j) = b[p * b_step + j]  (a packed panel, b_step = cols; or rows of B^T)
//              b_columns == true:  B(p, j) = b[p + j * b_step]  (column-major B in place, b_step = ldb)
//   c, ldc     column-major C; rows and cols of it are written, nothing else
//   alpha, beta  beta == 0: C is not read (NaN in C does not propagate)
//   last_rows  rows in the last vector, 1..lanes: rows = (vectors - 1) * lanes + last_rows
//   prefetch, prefetch_step  at step p the line at prefetch + p * prefetch_step is requested into L2: the
//              next panel of an A packed ahead of time (gemm_packed) streams in while this one is multiplied.
//              A hint only, never dereferenced; step 0 with any address (a) asks for nothing new.
//
// A patch micro-kernel (PatchMicroKernel) is the same product with B's columns read in place from an image:
// column j is a convolution window (a patch) starting at cols[j], and its k elements are runs of `run`
// contiguous values (a window row: window_w * in_c channels in NHWC) `run + skip` apart (the next window row),
// the first run `run_left` (1..run) long when the depth block starts inside a run:
//
//   B(p, j) = cols[j][p + skip * jumps(p)],  jumps(p) = p < run_left ? 0 : 1 + (p - run_left) / run
//
// column_step > 0 says the columns are equally spaced, cols[j] = cols[0] + j * column_step (a tile inside one
// output row): a kernel may then address them from a few pointers (AVX-512 does: twelve pointers would not fit
// the general registers); 0 says nothing. cols[] is filled either way.
//
// It is how conv2d's im2col/in_place multiplies without writing the patches out (src/conv2d/im2col/).
//
// A patch-row micro-kernel (PatchRowKernel) multiplies a whole row of `cols` equally spaced patches by one panel
// (1 to 4 vectors), the convolution's first layers' case (1-4 input channels, a window whose whole depth,
// window_h * window_w * channels, is one packed depth block), and applies the epilogue as it stores:
//
//   C(i, j) = epilogue(sum_{r < window_rows, q < run} A(i, r * run + q) * image[j * column_step + r * row_step + q])
//   epilogue(x) = relu?(x + residual[j * ldc + i] + bias[i])      (residual, bias: nullptr when absent)
//
//   cols       >= Blocking::patch_row_nr[vectors - 1]: the kernel covers it in tiles of that many columns, the
//              last one overlapping the one before it (its overlapped columns are computed again, not stored)
//   a          the packed panel: column p at a + p * vectors * lanes, zero rows below `rows`
//   c, ldc     column j at c + j * ldc (NHWC output: ldc = the layer's output channels); rows of it are
//              written, nothing else. residual likewise with the same ldc (it may be C itself)
//   last_rows  rows in the last vector, as above
// Its column step (stride_w * channels) is fixed per kernel, so that every tap is one broadcast FMA addressed
// from one pointer and a constant: the kernel for (vectors, step) is patch_row_kernel(vectors, step), nullptr
// where the set has none (then the tile-by-tile patch kernels run).
//
// A kernel set per ISA holds one kernel per (b_columns, vectors <= Blocking::vectors, cols <= Blocking::nr),
// the ISA's block sizes, and optionally its own versions of the frame's packing and GEMV routines.
// Sets: avx512 (src/gemm/cpu_packed/microkernel_avx512.cpp, compiled for x86-64-v4), avx2 (x86-64-v3), generic
// (plain C++, the library's own flags). microkernels<T>(isa) returns the set, nullptr where this build has none.
#pragma once

#include <cstdint>

#include "portkern/runtime/device_class.hpp"

namespace portkern::kernel::cpu {

template <class T>
using MicroKernel = void (*)(std::int64_t k, const T* a, std::int64_t a_step, const T* b, std::int64_t b_step, T* c,
                             std::int64_t ldc, T alpha, T beta, int last_rows, const T* prefetch,
                             std::int64_t prefetch_step);

template <class T>
using PatchMicroKernel = void (*)(std::int64_t k, const T* a, std::int64_t a_step, const T* const* cols,
                                  std::int64_t column_step, std::int64_t run_left, std::int64_t run, std::int64_t skip,
                                  T* c, std::int64_t ldc, T alpha, T beta, int last_rows, const T* prefetch,
                                  std::int64_t prefetch_step);

template <class T>
using PatchRowKernel = void (*)(std::int64_t cols, const T* a, const T* image, std::int64_t window_rows,
                                std::int64_t run, std::int64_t row_step, T* c, std::int64_t ldc, int last_rows,
                                const T* bias, const T* residual, bool relu);

// The frame's routines an ISA may provide (nullptr: the frame's portable C++).
//   pack_columns:    column p of src (rows contiguous, p-th at src + p*ld) into panels of mr rows; panel r
//                    (width w = its rows rounded up to lanes, zero-padded) at dst + r*mr*kc, (i, p) at [p*w + i]
//   pack_transposed: dst[p*wo + j] = j < wv ? src[j*ld + p] : 0 for p < kc, j < wo
//   gemv_dot:        y[r*ys] = alpha * dot(m + r*ldm, x) + beta * y[r*ys], r < rows, dots of length k
//   gemv_axpy:       y[0:rows] = alpha * sum_p x[p] * m[p*ldm + (0:rows)] + beta * y
template <class T>
using PackColumns = void (*)(const T* src, std::int64_t ld, std::int64_t rows, std::int64_t kc, std::int64_t mr, T* dst);
template <class T>
using PackTransposed = void (*)(const T* src, std::int64_t ld, std::int64_t wv, std::int64_t wo, std::int64_t kc, T* dst);
template <class T>
using GemvDot = void (*)(std::int64_t rows, std::int64_t k, const T* m, std::int64_t ldm, const T* x, T alpha, T beta,
                         T* y, std::int64_t ys);
template <class T>
using GemvAxpy = void (*)(std::int64_t rows, std::int64_t k, const T* m, std::int64_t ldm, const T* x, T alpha, T beta,
                          T* y);

inline constexpr int max_vectors = 4;   // table bounds
inline constexpr int max_nr = 16;
inline constexpr int max_row_vectors = 4;   // patch-row kernels: panels of 1 to 4 vectors,
inline constexpr int max_row_step = 12;     // column steps 1..12 (stride_w * channels of 1-4 channel images)

// Register and cache blocking of one ISA and precision.
struct Blocking {
  int lanes = 1;             // elements per SIMD vector
  int vectors = 1;           // vectors per micro-tile column: MR = vectors * lanes
  int nr = 1;                // micro-tile columns (NR)
  std::int64_t kc = 256;     // depth of a block: KC x NR of B stays in L1
  std::int64_t mc = 64;      // rows of a block: MC x KC of A stays in L2 (the L2 budget is mc * kc elements)
  std::int64_t nc = 4096;    // columns of B packed at once
  bool reads_unpacked_a = false;
  // Columns of a patch tile over a panel of v vectors: patch_nr[v - 1] (<= max_nr). Fewer vectors leave
  // accumulators free for more columns, which a patch multiply with few output channels needs (a 3-channel
  // stem with 32 filters is a 2-vector panel).
  int patch_nr[max_vectors] = {1, 1, 1, 1};
  // Columns of a patch-row kernel's tile over a panel of v vectors: patch_row_nr[v - 1] (0: no such kernels).
  int patch_row_nr[max_row_vectors] = {0, 0, 0, 0};
  // The largest filter panel (bytes) the patch-row kernels take: one that stays in L1 while a row's tiles stream it.
  std::int64_t patch_row_panel_bytes = 0;
  std::int64_t mr() const { return std::int64_t(vectors) * lanes; }
};

template <class T>
struct MicroKernels {
  CpuIsa isa = CpuIsa::generic;
  Blocking blocking;
  MicroKernel<T> kernels[2][max_vectors][max_nr] = {};   // [b_columns][vectors - 1][cols - 1]
  PatchMicroKernel<T> patch_kernels[max_vectors][max_nr] = {};   // [vectors - 1][cols - 1]
  PatchRowKernel<T> patch_row_kernels[max_row_vectors][max_row_step] = {};   // [vectors - 1][column step - 1]
  PackColumns<T> pack_columns = nullptr;
  PackTransposed<T> pack_transposed = nullptr;
  GemvDot<T> gemv_dot = nullptr;
  GemvAxpy<T> gemv_axpy = nullptr;

  MicroKernel<T> kernel(bool b_columns, int vectors, int cols) const { return kernels[b_columns][vectors - 1][cols - 1]; }
  PatchMicroKernel<T> patch_kernel(int vectors, int cols) const { return patch_kernels[vectors - 1][cols - 1]; }
  // The patch-row kernel of panels of `vectors` vectors and columns `step` apart, or nullptr.
  PatchRowKernel<T> patch_row_kernel(std::int64_t vectors, std::int64_t step) const {
    if (vectors < 1 || vectors > max_row_vectors || step < 1 || step > max_row_step) return nullptr;
    return patch_row_kernels[vectors - 1][step - 1];
  }
};

// The set of `isa` (nullptr when this build has none: the x86 sets exist on x86-64 only). Whether the CPU can
// execute it is the device class's question (portkern/runtime/device_class.hpp).
template <class T>
const MicroKernels<T>* microkernels(CpuIsa isa);

// The set the CPU's class uses (active_cpu_isa()).
template <class T>
const MicroKernels<T>& active_microkernels();

}  // namespace portkern::kernel::cpu
