// bf16: the CPU GEMM on bfloat16 inputs with fp32 products, sums and output (oneDNN's bf16 matmul with an f32
// destination, cuBLAS's cublasGemmEx with CUDA_R_16BF inputs and CUBLAS_COMPUTE_32F).
//
// What it computes
//   Column-major C = alpha * op(A) * op(B) + beta * C; A and B bfloat16, alpha, beta and C float. A product of
//   two bfloat16 is exact in fp32 and the sums are fp32, so the error is SGEMM's on the rounded inputs (about
//   k * 2^-24 of the sum of |a * b|). beta == 0: C is not read. Denormal bfloat16 inputs count as zero in the
//   amx and avx512 kernels (their instructions' rule, whatever MXCSR says).
//
// Algorithm (the packed GEMM's, cpu_packed.hpp, over 32-deep chunks of k)
//   for jc in n step NC, for pc in k step KC: pack op(B)[pc.., jc..]; for ic in m step MC: pack op(A)[ic.., pc..];
//   for jr in NC step 32, for ir in MC step 32: micro-kernel, a 32 x 32 block of C over KC.
//   Packed layout: 32-row (column) micro-panels, each a sequence of chunks of 32 k, each chunk two 1 KiB AMX
//   tiles, one per 16-row (column) half, so that a kernel reads each operand as one stream:
//     A: a tile is [16 k pairs][16 rows][2] (VNNI: pairs of k side by side)
//     B: a tile is [16 columns][32 k]
//   Rows, columns and k beyond the problem are packed as zeros, so every kernel multiplies whole chunks.
//   B is not packed at all where its columns are contiguous along k (op(B) = B), a micro-panel is whole (32
//   columns, whole chunks) and at most 512 rows use it: the kernels read its tiles in place (BPanel),
//   1.3-1.8x on products with few rows.
//   Few rows (m <= 8) with op(B) = B skip all this: dot products on B in place (DirectProduct).
//   Threads: whole problems of a batch per thread, or each problem's output cut into a tm x tn grid of parts
//   (whole 32 x 32 blocks), each packing its own operands; the grid's cost counts that packing.
//
// Micro-kernels, one file each with its own target flags; the first the CPU (and OS) can run is used:
//   amx      Intel AMX (Sapphire Rapids and later): 2 x 2 tiles of 16 x 16 fp32 sums, TDPBF16PS
//   avx512   AVX512-BF16 (Cooper Lake, Zen 4, Zen 5): VDPBF16PS on 32 rows x 8 columns at a time
//   generic  plain C++, any CPU
//
// When it wins: compute-bound shapes on AMX machines, where it runs at several times fp32 SGEMM's rate.
#pragma once

#include <cstdint>
#include <vector>

#include "gemm/args.hpp"
#include "portkern/bfloat16.hpp"

namespace portkern::gemm_impl::bf16 {

using Bits = std::uint16_t;                  // a bfloat16's bits, as the panels hold them
inline constexpr int chunk_k = 32;           // k per chunk: one AMX tile row of bfloat16 is 64 bytes
inline constexpr int tile_size = 512;        // bfloat16 per tile: 16 rows (columns) x 32 k
inline constexpr int chunk_size = 1024;      // bfloat16 per chunk of a micro-panel: its two tiles
inline constexpr int block_rows = 32;        // a micro-kernel's block of C: 32 x 32
inline constexpr int block_cols = 32;

// Where a micro-panel of B lies: packed (tiles back to back) or B itself, when its columns are contiguous along
// k and the panel is whole (32 columns, whole chunks): then the kernels read the tiles in place, with
// B's column stride as the tile's row stride, and B is not copied at all. Steps count bfloat16.
struct BPanel {
  const Bits* at;
  std::int64_t column_step;   // from one column to the next: 32 packed, ldb in place
  std::int64_t half_step;     // from column 0 to column 16: a tile packed, 16 * ldb in place
  std::int64_t chunk_step;    // from one chunk of k to the next: two tiles packed, 32 in place
};

// C[0:rows, 0:cols] = alpha * (A x B) + beta * C (beta == 0: C not read) for one 32 x 32 block of C, `a` a
// packed micro-panel and `b` one of B, `chunks` chunks long.
using MicroKernel = void (*)(std::int64_t chunks, const Bits* a, const BPanel& b, float* c, std::int64_t ldc,
                             int rows, int cols, float alpha, float beta);

// Packs one chunk of a micro-panel of A whose rows are contiguous (column-major, not transposed): `rows` (1-32)
// x `depth` (1-32) values from `a` (the chunk's first row and k, columns `lda` apart) into its two VNNI tiles
// ([16 k pairs][16 rows][2] each), zeros beyond rows and depth.
using PackChunk = void (*)(const Bits* a, std::int64_t lda, int rows, int depth, Bits* out);

// Columns [n0, n1) of one problem with few rows (m <= direct_rows) and B's columns contiguous along k (op(B) = B):
// dot products on B where it lies, read once (a GEMV-like product is bound by reading B; packing it would
// triple that traffic).
inline constexpr int direct_rows = 8;
using DirectProduct = void (*)(const GemmArgs<float, bfloat16>& p, bool trans_a, std::int64_t n0, std::int64_t n1);

struct KernelSet {
  const char* name;            // "amx", "avx512", "generic"
  MicroKernel kernel;
  PackChunk pack_a_chunk;
  DirectProduct direct;        // nullptr: such problems go through the micro-kernel too
  void (*begin)();             // on each thread before its first kernel call (AMX: load the tile configuration)
  void (*end)();               // on each thread after its last
};

// The kernels this CPU and OS can run, fastest first; portkern::gemm uses the first.
std::vector<KernelSet> kernels_here();

// The per-ISA kernels: nullptr where this build or this machine cannot run them.
const KernelSet* amx_kernels();
const KernelSet* avx512_kernels();
const KernelSet& generic_kernels();

// The AVX-512 chunk packing and direct product (kernel_avx512.cpp), which the amx kernels use too.
void avx512_pack_a_chunk(const Bits* a, std::int64_t lda, int rows, int depth, Bits* out);
void avx512_direct(const GemmArgs<float, bfloat16>& p, bool trans_a, std::int64_t n0, std::int64_t n1);

// The `batch` products on up to `threads` threads with the given kernels (arguments checked, m, n, k >= 1).
void run(const KernelSet& kernels, bool trans_a, bool trans_b, const GemmArgs<float, bfloat16>& p, int threads);

}  // namespace portkern::gemm_impl::bf16
