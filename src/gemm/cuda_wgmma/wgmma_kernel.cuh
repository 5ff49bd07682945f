// The wgmma GEMM's kernel (wgmma_gemm.hpp says what it computes): a warp-specialised pipeline of TMA copies
// and warpgroup MMAs on sm_90a.
//
// Shared memory, per stage s of `Stages`: A's k-tile (128 rows of m, 128 bytes of k each: 64 16-bit values or
// 32 fp32 ones read as TF32), then B's (BN rows of n). A K-major operand (k contiguous in memory) is one TMA box of 128 (or BN) rows x 128
// bytes; an M/N-major one is boxes of 64 values of m (or n) x 64 rows of k, one per 64 rows of the tile, 8 KiB
// apart. Both are written with the 128-byte swizzle, which the matrix descriptors name, so that neither the
// copy nor the tensor cores meet bank conflicts.
//
// Synchronisation: full[s] completes when the copies of stage s have landed (one arrival carrying the byte
// count, then the copy engine's transactions); empty[s] when each of the 8 consumer warps has seen the MMAs
// that read stage s complete. The producer waits on empty[s] before refilling s, the consumers on full[s].
// Phase parity: the r-th use of stage s waits parity r & 1 on full, (r & 1) ^ 1 on empty (a fresh barrier
// counts its preceding phase, parity 1, as complete, so round 0 does not wait).
//
// 3xTF32 (Passes = 3): B (and A, when read through a descriptor) are K-major fp32 rows holding each value's TF32
// part ("big") and, segment_k values further along k, the TF32 part of what remains ("small"); each k-tile is
// multiplied three times, big A by big B, big A by small B, small A by big B (tf32_operand.cu writes the parts).
//
// A in registers (ARegisters, fp32 inputs): A's k-tile lands as it is stored, fp32, K-major (128 rows of 128
// bytes) or M-major (boxes of 32 values of m x 32 rows of k, 4 KiB apart), 128-byte swizzled either way. Each
// consumer thread loads its fragments of the k-tile, rounds them to TF32 (or splits them into the two parts) with
// the kernel model's atoms and multiplies with the register form of wgmma. A is then never rewritten, whatever
// its layout: the TF32 instructions read only K-major operands from shared memory. 3xTF32's stage then holds
// B's two parts side by side, and one k-tile's three products follow from one stage.
//
// C by the copy engine (Output::store, launch.hpp's CStore): each consumer warpgroup writes its 64 rows of the
// tile into shared memory 32 columns (a slab) at a time, in the copy engine's 128-byte-swizzled boxes, and one of
// its threads stores the slab into C with a bulk tensor copy (or adds it, where k is split), which leaves out
// what lies outside C in whole 16-byte units: its extent along C's rows (columns where transposed) stops at a
// multiple of 4, and the threads write the 1-3 past it from the slab. Two buffers per warpgroup: a slab is written
// while the one before is copied out, and the item's last slabs are copied out while the warpgroup multiplies its
// next item.
//
// Split k (Output::counters): the parts of a tile run on different blocks, and where beta != 1 the first of them
// to finish its products writes C as an unsplit product would (beta * C plus its own), the others add theirs
// once it has landed. Each consumer warpgroup's 64 rows of a tile have a counter, zero before the launch: a
// part's warpgroup takes a ticket (+1) when its products are done; the one that drew 0 writes, waits until its
// writes are visible, and adds `landed` + 1; the others wait for `landed`, then arrive again (+1) and add
// theirs. The last of the 2 x splits arrivals sets the counter back to 0 for the next launch. Whoever waits,
// waits for a part already past its products, so no part waits for a block that has not started. With beta = 1
// every part adds at once.
//
// The convolution's epilogue (Finish kernels, Output::epilogue): where k is not split and beta is 0, each value of C
// gets its residual, its column's bias and ReLU as it is written, through the copy engine or by the threads; no
// pass over the output after the product (launch.hpp's epilogue_fusable: windows kernels, not the 256-column one with
// A in registers, whose consumers have no registers to spare). The residual under a tile is fetched into L2 as its
// products start, and each slab's residual and bias are gathered one slab ahead of its stores, a few instructions a
// value (gather_addends). A kernel of its own, launched only for those calls: compiled into every windows kernel,
// finish() made VGG-16's layers 1.2-2.4x slower on the H100 at tf32, most where k is split (conv3_2 164 -> 67
// TFLOP/s; data/results/h100-2026-11-28-epilogue/), though ptxas reported the same registers and stack. So did,
// before gather_addends, a Finish kernel that let a split product's last part apply the epilogue (about 3x;
// data/results/h100-2026-11-28-fused/).
//
// Launched early (programmatic dependent launch): a block initialises its barriers and prefetches its tensor maps
// while the stream's previous kernel may still run, then waits for it (griddepcontrol.wait) before any access to
// A, B or C, and at once allows the next kernel to launch the same way.
//
// Copies by threads (ThreadCopy): an operand the copy engine cannot read (a base, leading dimension or batch
// stride aligned to 4 or 8 bytes but not 16, or one matrix for every problem) is copied by the producer
// warpgroup's 128 threads instead, with asynchronous copies (cp.async) into the same swizzled lines, zeros
// outside it. Each thread's copies arrive on full[s] when they land (129 arrivals with the copy engine's), and
// the consumers fence the generic proxy's writes before the tensor cores read them. No rewriting pass, no
// second launch.
//
// Windows (implicit GEMM, fp32): A is the patch matrix of a convolution, never stored: row m an output pixel,
// k = (r * window_w + s) * channels + c. Where a k-tile lies at one tap (channels a multiple of 32) the copy engine
// copies it in im2col mode: one box of the tile's 128 pixels x 32 channels at tap (r, s), the pixels walking the
// output positions across rows and images, zeros in the padding; TF32 reads it in place (rounded on the way),
// 3xTF32 from registers. Else the producer's threads copy each k-tile's lines (multiplied from registers) from
// the NHWC image, zeros where a window meets the padding: thread t copies line t, the pixel whose image and window
// corner it works out once per item, its pieces walking the taps from k-tile to k-tile (one division per k-tile).
// The copy engine is the fast path: on the H100 copies by threads took about 2.7 us per k-tile whatever the tile's
// width (lines shared out as copy_pieces does, or a line per thread: the same), the im2col boxes 4x less (VGG-16
// conv1_2 at TF32: 23 -> 97 TFLOP/s through registers, 111 in place).
#pragma once

#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>

#include "gemm/cuda_wgmma/launch.hpp"
#include "gemm/cuda_wgmma/wgmma_atoms.cuh"
#include "portkern/kernel/cuda/atoms.cuh"

namespace portkern::gemm_impl::cuda_wgmma::kernel {

constexpr int block_m = 128;          // two consumer warpgroups of 64 rows
constexpr int threads = 384;          // warpgroup 0 produces, 1 and 2 consume
constexpr int row_bytes = 128;        // one swizzle row: a tile row's k-extent in bytes
constexpr int atom_rows = 64;         // rows of m or n one MN-major box (and one wgmma of A) covers
constexpr int consumer_warps = 8;
constexpr int raster_group = 16;      // tiles of m visited together, for L2 reuse of B's columns
// C through the copy engine: a consumer warpgroup's 64 rows go out 32 columns (a slab) at a time, in boxes of 32
// fp32 values (128 bytes, one swizzle row) per line.
constexpr int slab_columns = 32, box_values = row_bytes / 4;
constexpr int slab_bytes = atom_rows * slab_columns * 4, box_bytes = box_values * slab_columns * 4;

template <class Type>
struct Element;
template <>
struct Element<Bf16> {
  static constexpr int bytes = 2, depth = 16;
};
template <>
struct Element<F16> {
  static constexpr int bytes = 2, depth = 16;
};
template <>
struct Element<Tf32> {   // fp32 in memory; the tensor cores read its top 19 bits
  static constexpr int bytes = 4, depth = 8;
};

// BParts: 2 where a stage holds both of B's 3xTF32 parts (A in registers).
template <class Type, int BN, int Stages, int BParts = 1>
struct Layout {
  static constexpr int bk = row_bytes / Element<Type>::bytes;           // k per tile
  static constexpr int steps = bk / Element<Type>::depth;               // wgmma per k-tile
  static constexpr int a_bytes = block_m * row_bytes, b_bytes = BN * row_bytes;
  static constexpr int stage_bytes = a_bytes + BParts * b_bytes;
  static constexpr int epilogue_bytes = 2 /* consumer warpgroups */ * 2 /* buffers */ * slab_bytes;
  static constexpr int smem_bytes = Stages * stage_bytes + epilogue_bytes + 1024 /* alignment */ +
                                    2 * Stages * 8 /* barriers */ + 2 * 4 /* split k's tickets */;
  static_assert(smem_bytes <= 232448, "more shared memory than a block of compute capability 9.0 may have");
  static constexpr int mn_box_values = row_bytes / Element<Type>::bytes;   // of m or n in one MN-major box
  static constexpr int mn_box_bytes = mn_box_values * bk * Element<Type>::bytes;   // 8 KiB (16-bit), 4 KiB (fp32)
};

// The stages that fill 192 KiB of shared memory.
constexpr int stages_for(int bn, int b_parts) { return 196608 / (block_m * row_bytes + b_parts * bn * row_bytes); }

// The epilogue's view of C and the work: `items` = tiles x parts of k x problems, in that order (tile fastest),
// shared round-robin by a persistent grid (one block per multiprocessor). With splits > 1 the parts of a tile
// write C in the order `counters` keeps (the kernel's header), where beta != 1; else they all add.
struct Output {
  std::int64_t m, n, ldc, stride_c;
  float alpha, beta;
  float* c;
  int tiles_m, tiles_n, k_tiles;   // k_tiles counts each pass over a k-tile (Passes per k-tile)
  int splits, k_tiles_per_split;
  int segment_k;   // 3xTF32: where the small parts start along k
  int batch0;   // the first problem of this launch
  int items;
  bool c_transposed;   // C(row, col) at c[col + row * ldc]
  CStore store;   // how an unsplit product, or a split one's first part, writes C
  std::uint32_t* counters;   // split k with beta != 1: counters_for(tiles of all problems), zero; else nullptr
  Epilogue epilogue;   // Finish kernels (k unsplit, beta 0): applied to each value of C as it is written (finish)

  // C(row, col) at c[row * row_step() + col * column_step()] of its problem: column-major, or transposed.
  __device__ std::int64_t row_step() const { return c_transposed ? ldc : 1; }
  __device__ std::int64_t column_step() const { return c_transposed ? 1 : ldc; }
  __device__ std::int64_t offset(std::int64_t row, std::int64_t col) const {
    return row * row_step() + col * column_step();
  }
};

// An operand copied by the producer's threads (the kernel's header): `inner` values contiguous (k where it is
// K-major, else m or n), `outer` lines ld apart, problems `stride` apart (0: one matrix for all), all in values;
// base, ld and stride aligned to `chunk` bytes (4, 8 or 16), the unit of its copies. base == nullptr: the copy
// engine copies it.
struct ThreadCopy {
  const void* base = nullptr;
  std::int64_t ld = 0, stride = 0, inner = 0, outer = 0;
  int chunk = 16;
};
struct ThreadCopies {
  ThreadCopy a, b;
  Windows windows;   // A as windows of an image (the kernel's Windows parameter); a.base: image, or null (im2col box)
};

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)

__device__ __forceinline__ std::uint32_t shared_address(const void* p) {
  return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void barrier_init(std::uint64_t* bar, std::uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(shared_address(bar)), "r"(count) : "memory");
}
__device__ __forceinline__ void barrier_expect_bytes(std::uint64_t* bar, std::uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(shared_address(bar)), "r"(bytes)
               : "memory");
}
__device__ __forceinline__ void barrier_arrive(std::uint64_t* bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(shared_address(bar)) : "memory");
}
__device__ __forceinline__ void barrier_wait(std::uint64_t* bar, std::uint32_t parity) {
  std::uint32_t done = 0;
  do {
    asm volatile(
        "{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\nselp.u32 %0, 1, 0, p;\n}\n"
        : "=r"(done)
        : "r"(shared_address(bar)), "r"(parity)
        : "memory");
  } while (!done);
}

// A TMA copy of one box at element coordinates (c0 innermost, c1, problem) into shared memory, completing on bar.
__device__ __forceinline__ void copy_box(void* dst, const CUtensorMap& map, std::uint64_t* bar, int c0, int c1,
                                         int problem) {
  asm volatile(
      "cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4, %5}], [%2];"
      ::"r"(shared_address(dst)), "l"(reinterpret_cast<std::uint64_t>(&map)), "r"(shared_address(bar)), "r"(c0),
      "r"(c1), "r"(problem)
      : "memory");
}

// A shared-memory matrix descriptor (PTX "matrix descriptor format"): start address, leading and stride byte
// offsets (16-byte units, 14 bits each), 128-byte swizzle. K-major: the stride offset steps 8 rows (1024 bytes),
// the leading one is unused. MN-major: the leading offset steps from one 64-row box to the next, the stride
// offset 8 rows of k.
__device__ __forceinline__ std::uint64_t descriptor(std::uint32_t address, std::uint32_t leading,
                                                    std::uint32_t stride) {
  auto field = [](std::uint32_t bytes) { return std::uint64_t((bytes & 0x3FFFF) >> 4); };
  return field(address) | field(leading) << 16 | field(stride) << 32 | std::uint64_t(1) << 62;
}

// A TMA copy in im2col mode (A as windows by the copy engine): 128 pixels x 32 channels from the NHWC image, the
// first pixel's window corner at (x, y) of image n, the tap at (dx, dy) from it, channels from c on.
__device__ __forceinline__ void copy_window_box(void* dst, const CUtensorMap& map, std::uint64_t* bar, int c, int x,
                                                int y, int n, std::uint16_t dx, std::uint16_t dy) {
  asm volatile(
      "cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4, %5, %6}],"
      " [%2], {%7, %8};" ::"r"(shared_address(dst)), "l"(reinterpret_cast<std::uint64_t>(&map)),
      "r"(shared_address(bar)), "r"(c), "r"(x), "r"(y), "r"(n), "h"(dx), "h"(dy)
      : "memory");
}

// Tile (tm, tn) of block `id`: groups of raster_group tiles of m, n-major within a group.
__device__ __forceinline__ void raster(int id, int tiles_m, int tiles_n, int& tm, int& tn) {
  const int per_group = raster_group * tiles_n;
  const int first = id / per_group * raster_group;
  const int rows = min(tiles_m - first, raster_group);
  const int local = id % per_group;
  tm = first + local % rows;
  tn = local / rows;
}

// One work item: a tile of C, the problem, and the range of k-tiles its part of k covers.
struct Item {
  int tm, tn, problem, first_tile, k_tiles;
  std::int64_t tile;   // of all problems' tiles: its split k's counters
};
__device__ __forceinline__ Item item_of(int id, const Output& out) {
  const int tiles = out.tiles_m * out.tiles_n, rest = id / tiles;
  Item it;
  raster(id % tiles, out.tiles_m, out.tiles_n, it.tm, it.tn);
  it.problem = out.batch0 + rest / out.splits;
  it.tile = std::int64_t(it.problem) * tiles + id % tiles;
  it.first_tile = rest % out.splits * out.k_tiles_per_split;
  it.k_tiles = min(out.k_tiles - it.first_tile, out.k_tiles_per_split);   // > 0: the host's choice of parts
  return it;
}

// A thread's fragment of A for k-step j (8 k values) of a k-tile in registers (ARegisters): a[v0 + 2 v1] =
// A(row + 8 v0, 8j + lane%4 + 4 v1) of the tile (row = the thread's first row in it), fp32 as stored. The byte
// offset of (r, k) in the tile: K-major, row r's 128 bytes with 16-byte chunk k/4 at k/4 ^ (r%8); M-major, box
// r/32, line k, chunk (r%32)/4 at ((r%32)/4) ^ (k%8). Lanes with lane/16 = 1 load v1 = 1 first, so that one load
// of all 32 lanes touches 32 banks (in order, the M-major layout puts two lanes on a bank).
template <bool AKMajor>
__device__ __forceinline__ void load_fragment(const std::uint8_t* tile, int row, int lane, int j, float (&a)[4]) {
  auto at = [&](int r, int k) {
    const int offset = AKMajor ? r * row_bytes + (((k >> 2) ^ (r & 7)) << 4) + (k & 3) * 4
                               : (r >> 5) * 4096 + k * row_bytes + ((((r & 31) >> 2) ^ (k & 7)) << 4) + (r & 3) * 4;
    return *reinterpret_cast<const float*>(tile + offset);
  };
  const int flip = lane >> 4, k = 8 * j + (lane & 3);
#pragma unroll
  for (int v0 = 0; v0 < 2; ++v0) {
    const float first = at(row + 8 * v0, k + 4 * flip), second = at(row + 8 * v0, k + 4 * (flip ^ 1));
    a[v0] = flip ? second : first;
    a[v0 + 2] = flip ? first : second;
  }
}

// The producer's 128 threads copy one operand's k-tile as the copy engine would have placed it: `rows` lines of
// 128 bytes, line l at l * 128 with its 16-byte chunk c at c ^ (l % 8), zeros outside the operand. K-major, line l
// holds row x0 + l from k0 on; MN-major (V values per line), line l holds k0 + l % V from x0 + l / V * V on. Each
// piece of Chunk bytes (what the operand's alignment allows) is one asynchronous copy (cp.async, zero-filling what
// lies outside); the caller's cp.async.mbarrier.arrive tells full[s] when they have landed.
template <int Bytes, bool KMajor, int Chunk>
__device__ __forceinline__ void copy_pieces(std::uint8_t* tile, const ThreadCopy& x, int rows, std::int64_t x0,
                                            std::int64_t k0, int problem, int thread) {
  // A thread copies the same piece of every step-th line: its position along the line, and so whether it lies
  // inside the operand, changes only from one group of lines to the next (K-major: one group, the tile's rows;
  // MN-major: one per V values of m or n, its lines the k-tile's).
  constexpr int per_line = row_bytes / Bytes, pieces = row_bytes / Chunk, step = 128 / pieces;
  const std::uint8_t* const base = static_cast<const std::uint8_t*>(x.base) + problem * x.stride * Bytes;
  const std::uint32_t to = shared_address(tile);
  const int first = thread / pieces, byte = thread % pieces * Chunk;
  const std::int64_t outer0 = KMajor ? x0 : k0, jump = step * x.ld * Bytes;
  const int group_lines = KMajor ? rows : per_line;
  // Not unrolled: the producer's 56 registers (setmaxnreg) hold one piece's addresses, not four. Unrolled, at 40
  // registers, ptxas spilled up to 720 bytes to local memory (H100: BF16 nets products copied by threads 1.10x
  // faster without, up to 1.31x).
#pragma unroll 1
  for (int g = 0; g < rows / group_lines; ++g) {
    const std::int64_t inner = (KMajor ? k0 : x0 + g * per_line) + byte / Bytes, left = x.inner - inner;
    const int inside = left <= 0 ? 0 : left >= Chunk / Bytes ? Chunk : int(left) * Bytes;   // bytes read
    const std::uint8_t* from = base + ((outer0 + first) * x.ld + inner) * Bytes;
#pragma unroll 1
    for (int j = first; j < group_lines; j += step, from += jump) {
      const int in = outer0 + j < x.outer ? inside : 0, l = g * group_lines + j;
      asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;"
                   ::"r"(to + l * row_bytes + (((byte >> 4) ^ (l & 7)) << 4) + (byte & 15)), "l"(in ? from : base),
                   "n"(Chunk), "r"(in)
                   : "memory");
    }
  }
}

template <int Bytes, bool KMajor>
__device__ __forceinline__ void copy_by_threads(std::uint8_t* tile, const ThreadCopy& x, int rows, std::int64_t x0,
                                                std::int64_t k0, int problem, int thread) {
  if (x.chunk == 16) copy_pieces<Bytes, KMajor, 16>(tile, x, rows, x0, k0, problem, thread);
  else if (x.chunk == 8) copy_pieces<Bytes, KMajor, 8>(tile, x, rows, x0, k0, problem, thread);
  else copy_pieces<Bytes, KMajor, 4>(tile, x, rows, x0, k0, problem, thread);
}

// A as windows (the kernel's header): the pixel of the line a producer thread copies, -1 past the last one, and
// the input position of its window's top-left tap (negative in the padding).
struct WindowRow {
  int image = -1, top = 0, left = 0;
};
__device__ __forceinline__ WindowRow window_row(const Windows& w, std::int64_t pixel) {
  WindowRow row;
  if (pixel < w.pixels) {
    const int per_image = w.out_h * w.out_w;
    row.image = int(pixel / per_image);
    const int within = int(pixel - std::int64_t(row.image) * per_image), y = within / w.out_w;
    row.top = y * w.stride_h - w.pad_top, row.left = (within - y * w.out_w) * w.stride_w - w.pad_left;
  }
  return row;
}

// Line `line` of A's k-tile from k0 on (copy_pieces's K-major layout: chunk c at c ^ (line % 8)), read from the
// image: each piece of Chunk bytes (which divides a pixel's channels) lies at one tap, inside the image or zeros.
template <int Chunk>
__device__ __forceinline__ void copy_windows(std::uint8_t* tile, const Windows& w, const WindowRow& row,
                                             std::int64_t k0, int line) {
  constexpr int pieces = row_bytes / Chunk, values = Chunk / 4;
  const std::uint32_t to = shared_address(tile) + line * row_bytes;
  // The tap (r, s) and channel c of the piece's first value; a piece moves on by `values` <= channels.
  int tap = int(k0) / w.channels, c = int(k0) - tap * w.channels, r = tap / w.window_w, s = tap - r * w.window_w;
  const float* const image = static_cast<const float*>(w.image);
  const std::int64_t rows_before = std::int64_t(row.image) * w.height;
#pragma unroll 1
  for (int p = 0; p < pieces; ++p) {
    const int y = row.top + r * w.dilation_h, x = row.left + s * w.dilation_w;
    const bool in = row.image >= 0 && k0 + p * values < w.depth && unsigned(y) < unsigned(w.height) &&
                    unsigned(x) < unsigned(w.width);
    const float* from = in ? image + ((rows_before + y) * w.width + x) * w.channels + c : image;
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;"
                 ::"r"(to + ((((p * Chunk) >> 4) ^ (line & 7)) << 4) + ((p * Chunk) & 15)), "l"(from), "n"(Chunk),
                 "r"(in ? Chunk : 0)
                 : "memory");
    c += values;
    if (c >= w.channels) {
      c -= w.channels;
      if (++s == w.window_w) s = 0, ++r;
    }
  }
}

__device__ __forceinline__ void copy_windows(std::uint8_t* tile, const Windows& w, int chunk, const WindowRow& row,
                                             std::int64_t k0, int line) {
  if (chunk == 16) copy_windows<16>(tile, w, row, k0, line);
  else if (chunk == 8) copy_windows<8>(tile, w, row, k0, line);
  else copy_windows<4>(tile, w, row, k0, line);
}

// The convolution's epilogue (wgmma_gemm.hpp's Epilogue) on value (row, col) of C: plus the residual at the same
// place, plus the column's bias, then ReLU. Its operands are loaded apart from finish(), ahead of the stores of C:
// loads interleaved with those stores (which, for all the compiler knows, may alias them) each waited for a
// round trip to memory, and made the fused epilogue cost more than the pass it replaces (VGG-16 conv1_2 at tf32:
// 33 -> 51 us; data/results/h100-2026-11-28-fused/).
struct Addends {
  float residual = 0.f, bias = 0.f;   // 0 where the epilogue has none, or (row, col) is outside C
};
// A float of global memory where `in`, else 0: one predicated load, no branch.
__device__ __forceinline__ float load_or_zero(bool in, std::uint64_t address) {
  float v;
  asm volatile("{\n .reg .pred p;\n setp.ne.u32 p, %2, 0;\n mov.b32 %0, 0;\n @p ld.global.f32 %0, [%1];\n}"
               : "=f"(v) : "l"(address), "r"(unsigned(in)));
  return v;
}

// The operands of this thread's 16 values of a slab (store_by_engine's value 4j + 2h + q, at row `row` + 8h and
// column `col` + 8j + q of C): addresses added up from one base and C's two strides, each load predicated on C's
// bounds. Worked out value by value, as before, the 64-bit index products and the branches around each load came
// to about 70 instructions a value: a Finish kernel ran 10-25% slower than the plain one even with an empty
// epilogue, and its code was 2.3x longer (cuobjdump on the H100, data/results/h100-2026-11-28-gather/).
__device__ __forceinline__ void gather_addends(const Output& out, std::int64_t row, std::int64_t col, int problem,
                                               Addends (&into)[16]) {
  const Epilogue& e = out.epilogue;
  constexpr std::uint64_t bytes = sizeof(float);
  const std::uint64_t down8 = 8 * bytes * out.row_step(), right = bytes * out.column_step();
  const std::uint64_t residual = reinterpret_cast<std::uint64_t>(e.residual) +
                                 bytes * std::uint64_t(std::int64_t(problem) * out.stride_c + out.offset(row, col));
  const std::uint64_t bias = reinterpret_cast<std::uint64_t>(e.bias) + bytes * std::uint64_t(col);
  const bool rows_in[2] = {row < out.m, row + 8 < out.m};
  std::uint64_t column_at = residual;   // value (0, 8j + q)'s address
#pragma unroll
  for (int j = 0; j < 4; ++j)
#pragma unroll
    for (int q = 0; q < 2; ++q) {
      const int column = 8 * j + q;
      const bool column_in = col + column < out.n;
      into[4 * j + q].residual = load_or_zero(e.residual && column_in && rows_in[0], column_at);
      into[4 * j + 2 + q].residual = load_or_zero(e.residual && column_in && rows_in[1], column_at + down8);
      into[4 * j + q].bias = into[4 * j + 2 + q].bias = load_or_zero(e.bias && column_in, bias + bytes * column);
      column_at += q == 0 ? right : 7 * right;
    }
}

__device__ __forceinline__ float finish(float v, Addends a, bool relu) {
  v += a.residual;
  v += a.bias;
  return relu && v < 0.f ? 0.f : v;
}

// The residual under a consumer's 64 rows x BN columns of a tile, fetched into L2 as its products start (Finish):
// 2 * BN lines of 128 bytes, two a thread, read back by its epilogue.
template <int BN>
__device__ __forceinline__ void prefetch_residual(const Output& out, std::int64_t row0, std::int64_t col0, int problem,
                                                  int thread) {
  const float* const residual = out.epilogue.residual;
  if (!residual) return;
#pragma unroll
  for (int i = thread; i < 2 * BN; i += 128) {
    // A line: 32 values along C's contiguous dimension (columns where transposed, else rows).
    const std::int64_t row = out.c_transposed ? row0 + i / (BN / 32) : row0 + 32 * (i % 2);
    const std::int64_t col = out.c_transposed ? col0 + 32 * (i % (BN / 32)) : col0 + i / 2;
    if (row >= out.m || col >= out.n) continue;
    const float* const at = residual + std::int64_t(problem) * out.stride_c + out.offset(row, col);
    asm volatile("prefetch.global.L2 [%0];" ::"l"(at));
  }
}

// The consumer warpgroup's 64 rows x BN columns of C (its accumulators d, times alpha) through the copy engine
// (CStore::engine, engine_add), 32 columns at a time through `buffers` (two slabs). A slab's boxes: column-major
// C, two of 32 rows x 32 columns (line = column, 4 KiB apart); transposed C, one of 32 columns x 64 rows (line =
// row). Within a box, value v of line l at l * 128 + ((v / 4) ^ (l % 8)) * 16 + (v % 4) * 4: the copy engine's
// 128-byte swizzle, which also spreads each store of the warp's 32 lanes over the banks.
template <int BN, bool Finish>   // Finish: each value through finish() (the kernel's epilogue_fusable)
__device__ __forceinline__ void store_by_engine(const float (&d)[BN / 2], std::uint8_t* buffers,
                                                const CUtensorMap& map_c, const Output& out, CStore mode, int row0,
                                                int col0, int problem, int consumer, int warp, int lane) {
  const bool leader = warp == 0 && lane == 0;
  // The copy engine writes C's contiguous dimension (rows; columns where transposed) up to engine_end, a multiple
  // of 4 (launch's tensor map); the threads write the `tail` past it.
  const std::int64_t contiguous = out.c_transposed ? out.n : out.m, engine_end = contiguous / 4 * 4;
  const int tail = int(contiguous - engine_end);
  auto sync = [&] { asm volatile("bar.sync %0, 128;" ::"r"(1 + consumer) : "memory"); };
  // Value (row, col) of a slab (row < 64, col < 32) in its buffer.
  auto at = [&](int row, int col) {
    return out.c_transposed ? row * row_bytes + (((col >> 2) ^ (row & 7)) << 4) + (col & 3) * 4
                            : (row / box_values) * box_bytes + col * row_bytes +
                                  ((((row % box_values) >> 2) ^ (col & 7)) << 4) + (row & 3) * 4;
  };
  // Finish: the epilogue's operands of a slab's 16 values of this thread, loaded together (addends_of's note): for
  // the next slab before this one is stored, but by the 256-column kernel (whose accumulators leave no registers
  // for two slabs' operands) as its slab starts.
  constexpr bool ahead = Finish && BN <= 128;
  auto gather = [&](int slab, Addends (&into)[16]) {
    gather_addends(out, row0 + warp * 16 + lane / 4, col0 + slab_columns * slab + 2 * (lane % 4), problem, into);
  };
  Addends next[ahead ? 16 : 1];
  if constexpr (ahead) gather(0, next);
#pragma unroll
  for (int slab = 0; slab < BN / slab_columns; ++slab) {
    std::uint8_t* const buffer = buffers + (slab & 1) * slab_bytes;   // BN / slab_columns is even
    Addends now[Finish ? 16 : 1];
    if constexpr (ahead) {
#pragma unroll
      for (int i = 0; i < 16; ++i) now[i] = next[i];
      if (slab + 1 < BN / slab_columns) gather(slab + 1, next);
    } else if constexpr (Finish) {
      gather(slab, now);
    }
    if (leader) asm volatile("cp.async.bulk.wait_group.read 1;" ::: "memory");   // the slab before the last one
    sync();
#pragma unroll
    for (int j = 0; j < 4; ++j)
#pragma unroll
      for (int h = 0; h < 2; ++h)
#pragma unroll
        for (int q = 0; q < 2; ++q) {
          const int row = warp * 16 + lane / 4 + 8 * h, col = 8 * j + 2 * (lane % 4) + q;
          float v = out.alpha * d[4 * (4 * slab + j) + 2 * h + q];
          if constexpr (Finish) v = finish(v, now[4 * j + 2 * h + q], out.epilogue.relu);
          *reinterpret_cast<float*>(buffer + at(row, col)) = v;
        }
    // The stores are the generic proxy's: ordered before the copy engine reads the slab.
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    sync();
    const int slab_col0 = col0 + slab_columns * slab;
    if (leader) {
      const std::uint64_t map = reinterpret_cast<std::uint64_t>(&map_c);
      for (int box = 0; box < (out.c_transposed ? 1 : 2); ++box) {
        const std::uint32_t from = shared_address(buffer + box * box_bytes);
        const int x = out.c_transposed ? slab_col0 : row0 + box_values * box, y = out.c_transposed ? row0 : slab_col0;
        if (mode == CStore::engine_add)
          asm volatile("cp.reduce.async.bulk.tensor.3d.global.shared::cta.add.tile.bulk_group [%0, {%1, %2, %3}], [%4];"
                       ::"l"(map), "r"(x), "r"(y), "r"(problem), "r"(from) : "memory");
        else
          asm volatile("cp.async.bulk.tensor.3d.global.shared::cta.bulk_group [%0, {%1, %2, %3}], [%4];"
                       ::"l"(map), "r"(x), "r"(y), "r"(problem), "r"(from) : "memory");
      }
      asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    }
    // The last 1-3 values of C's contiguous dimension, past the copy engine's extent (its whole 16-byte units):
    // read back from the slab and written by the threads, outside the unrolled stores above.
    const std::int64_t first = out.c_transposed ? slab_col0 : row0;   // the slab's first value of that dimension
    const int span = out.c_transposed ? slab_columns : atom_rows;
    if (tail > 0 && first <= engine_end && engine_end < first + span) {
      const int others = out.c_transposed ? atom_rows : slab_columns, thread = warp * 32 + lane;
      float* const c = out.c + std::int64_t(problem) * out.stride_c;
      for (int t = thread; t < tail * others; t += 128) {
        const int along = int(engine_end - first) + t / others, other = t % others;
        const int row = out.c_transposed ? other : along, col = out.c_transposed ? along : other;   // in the slab
        const std::int64_t c_row = row0 + row, c_col = slab_col0 + col;
        if (c_row >= out.m || c_col >= out.n) continue;
        float* const to = c + out.offset(c_row, c_col);
        const float v = *reinterpret_cast<const float*>(buffer + at(row, col));
        if (mode == CStore::engine_add) atomicAdd(to, v);
        else *to = v;
      }
    }
  }
}

// Split k's counters (the kernel's header): the first part's arrival adds `landed` besides its ticket.
constexpr std::uint32_t landed = 1u << 16;
__device__ __forceinline__ std::uint32_t load_acquire(const std::uint32_t* p) {
  std::uint32_t v;
  asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}
// An arrival of `count` on a counter; the last of a tile's 2 x splits arrivals sets it back to 0.
__device__ __forceinline__ void arrive(std::uint32_t* counter, std::uint32_t count, int splits) {
  if (atomicAdd(counter, count) + count == landed + 2 * std::uint32_t(splits)) atomicExch(counter, 0u);
}

#endif

// AKMajor / BKMajor: whether op(A) / op(B) has k contiguous in memory (A transposed, B not transposed); Passes:
// 1, or 3 for 3xTF32; ARegisters: A's fragments multiplied from registers (fp32 inputs).
// Threads: whether by_threads may name operands (a kernel without it is the copy engine's alone, compiled as if
// copies by threads did not exist). Windows: A is by_threads.windows (fp32, K-major; by threads into registers, or
// im2col boxes). Finish: each value of C through finish() as it is written (the header; epilogue_fusable kernels).
template <class Type, int BN, int Stages, bool AKMajor, bool BKMajor, int Passes = 1, bool ARegisters = false,
          bool Threads = false, bool Windows = false, bool Finish = false>
__global__ void __launch_bounds__(threads, 1)
    gemm(const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b,
         const __grid_constant__ CUtensorMap map_c, const Output out, const ThreadCopies by_threads) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  // The passes over a k-tile that take a stage each (with A in registers, one stage serves all three), and the
  // parts of B a stage holds.
  constexpr int stage_passes = ARegisters ? 1 : Passes, b_parts = ARegisters && Passes == 3 ? 2 : 1;
  static_assert(!Windows || (Threads && AKMajor), "windows are A's, K-major, the threads' kind of kernel");
  using L = Layout<Type, BN, Stages, b_parts>;
  extern __shared__ std::uint8_t raw[];
  std::uint8_t* const smem = raw + ((1024 - (shared_address(raw) & 1023)) & 1023);
  std::uint8_t* const epilogue = smem + Stages * L::stage_bytes;   // CStore::engine's buffers, 1024-aligned
  std::uint64_t* const full = reinterpret_cast<std::uint64_t*>(epilogue + L::epilogue_bytes);
  std::uint64_t* const empty = full + Stages;
  std::uint32_t* const tickets = reinterpret_cast<std::uint32_t*>(empty + Stages);   // split k's, per consumer

  // Registers per thread of each role (setmaxnreg; 64512 in all, the launch's 168 x 384): the copy engine's lone
  // issuing thread needs few, the consumers' accumulators most; the producer's copies by threads need 56.
  constexpr int producer_registers = Threads ? 56 : 40, consumer_registers = Threads ? 224 : 232;
  static_assert(128 * producer_registers + 256 * consumer_registers <= 168 * threads);
  const int warpgroup = threadIdx.x / 128;
  // Operands copied by threads: each producer thread's copies arrive on full[s] besides the copy engine's arrival.
  const bool a_threads = Threads && by_threads.a.base, b_threads = Threads && by_threads.b.base;
  const bool threads_copy = a_threads || b_threads;

  if (threadIdx.x == 0) {
    for (int s = 0; s < Stages; ++s)
      barrier_init(&full[s], threads_copy ? 129 : 1), barrier_init(&empty[s], consumer_warps);
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    // The copy engine's descriptors that this launch uses, fetched ahead of its first copies.
    auto prefetch = [](const CUtensorMap& map) {
      asm volatile("prefetch.tensormap [%0];" ::"l"(reinterpret_cast<std::uint64_t>(&map)) : "memory");
    };
    if (!a_threads) prefetch(map_a);
    if (!b_threads) prefetch(map_b);
    if (out.store != CStore::threads) prefetch(map_c);
  }
  __syncthreads();
  // Launched early (wgmma_launch.cu's overlap_allowed): what came before in the stream completes, its writes
  // visible, before any of A, B or C is touched; the next kernel may then start its own set-up on multiprocessors
  // this grid frees. Both are no-ops in a plain launch.
  asm volatile("griddepcontrol.wait;" ::: "memory");
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");

  // Both roles walk the same items and count k-tiles across them (`step`), so that stage and phase carry on
  // from one item to the next: the producer fills the next item's stages while the consumers finish one.
  if (warpgroup == 0) {   // the producer: one thread issues every TMA copy, all copy by threads
    asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(producer_registers));
    if (threadIdx.x != 0 && !threads_copy) return;
    const std::uint32_t tma_bytes = (a_threads ? 0 : L::a_bytes) + (b_threads ? 0 : b_parts * L::b_bytes);
    int step = 0;
    for (int id = blockIdx.x; id < out.items; id += gridDim.x) {
      const Item item = item_of(id, out);
      const int m0 = item.tm * block_m, n0 = item.tn * BN;
      // Windows: this thread's line of each k-tile.
      const WindowRow row = Windows ? window_row(by_threads.windows, std::int64_t(m0) + threadIdx.x) : WindowRow{};
      for (int kt = 0; kt < item.k_tiles; ++kt, ++step) {
        const int s = step % Stages;
        barrier_wait(&empty[s], ((step / Stages) & 1) ^ 1);
        std::uint8_t* const a = smem + s * L::stage_bytes;
        std::uint8_t* const b = a + L::a_bytes;
        // Pass 0 multiplies the big parts, pass 1 big A by small B, pass 2 small A by big B.
        const int pass = (item.first_tile + kt) % stage_passes;
        const int k0 = (item.first_tile + kt) / stage_passes * L::bk;
        const int ka = k0 + (pass == 2 ? out.segment_k : 0), kb = k0 + (pass == 1 ? out.segment_k : 0);
        if (threadIdx.x == 0) {
          barrier_expect_bytes(&full[s], tma_bytes);
          if (!a_threads) {
            if constexpr (Windows) {   // the k-tile's tap and channels, the tile's first pixel: one im2col box
              const auto& w = by_threads.windows;
              const int tap = ka / w.channels, c0 = ka - tap * w.channels, r = tap / w.window_w;
              copy_window_box(a, map_a, &full[s], c0, row.left, row.top, row.image,
                              std::uint16_t((tap - r * w.window_w) * w.dilation_w), std::uint16_t(r * w.dilation_h));
            } else if constexpr (AKMajor) {
              copy_box(a, map_a, &full[s], ka, m0, item.problem);
            } else {
              for (int i = 0; i < block_m / L::mn_box_values; ++i)
                copy_box(a + i * L::mn_box_bytes, map_a, &full[s], m0 + i * L::mn_box_values, ka, item.problem);
            }
          }
          if (!b_threads) {
            if constexpr (BKMajor) {
              copy_box(b, map_b, &full[s], kb, n0, item.problem);
              if constexpr (b_parts == 2)
                copy_box(b + L::b_bytes, map_b, &full[s], kb + out.segment_k, n0, item.problem);
            } else {
              for (int i = 0; i < BN / L::mn_box_values; ++i)
                copy_box(b + i * L::mn_box_bytes, map_b, &full[s], n0 + i * L::mn_box_values, kb, item.problem);
            }
          }
        }
        if (threads_copy) {   // (never 3xTF32's rewritten parts: ka == kb == k0)
          constexpr int bytes = Element<Type>::bytes;
          if constexpr (Windows) copy_windows(a, by_threads.windows, by_threads.a.chunk, row, ka, threadIdx.x);
          else if (a_threads) copy_by_threads<bytes, AKMajor>(a, by_threads.a, block_m, m0, ka, item.problem, threadIdx.x);
          if (b_threads) copy_by_threads<bytes, BKMajor>(b, by_threads.b, BN, n0, kb, item.problem, threadIdx.x);
          asm volatile("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];" ::"r"(shared_address(&full[s])) : "memory");
        }
      }
    }
  } else {   // a consumer: 64 rows of each tile, all BN columns
    asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" ::"n"(consumer_registers));
    const int consumer = warpgroup - 1, lane = threadIdx.x % 32, warp = threadIdx.x / 32 % 4;

    // Per k-step (16 16-bit values, 8 TF32 ones): K-major tiles advance 32 bytes along their swizzled rows,
    // MN-major ones 16 rows of k.
    constexpr std::uint32_t k_step_bytes = Element<Type>::depth * Element<Type>::bytes;
    constexpr std::uint32_t a_step = AKMajor ? k_step_bytes : Element<Type>::depth * row_bytes;
    constexpr std::uint32_t b_step = BKMajor ? k_step_bytes : Element<Type>::depth * row_bytes;
    constexpr std::uint32_t a_leading = AKMajor ? 16 : L::mn_box_bytes, b_leading = BKMajor ? 16 : L::mn_box_bytes;
    const std::uint32_t stage0 = shared_address(smem);

    int step = 0;
    for (int id = blockIdx.x; id < out.items; id += gridDim.x) {
      const Item item = item_of(id, out);
      if constexpr (Finish)
        prefetch_residual<BN>(out, std::int64_t(item.tm) * block_m + consumer * atom_rows, std::int64_t(item.tn) * BN,
                              item.problem, threadIdx.x % 128);
      float d[BN / 2];
#pragma unroll
      for (int i = 0; i < BN / 2; ++i) d[i] = 0.f;
      // 3xTF32 sums each k-tile's three passes apart, in `part`, and adds them to d with fp32 FADDs (round to
      // nearest): the tensor cores' own fp32 sums truncate, an error that grows with k to ~2^-24 * k/8 of the
      // result (measured 65x IEEE SGEMM's at k = 8192). The adds wait for the k-tile's products, which the other
      // consumer warpgroup's products overlap (adding up every 2 k-tiles instead measured 3-9% slower).
      constexpr bool promote = Passes > 1;
      float part[promote ? BN / 2 : 1];
      bool held = false;   // the previous stage is still read by products in flight
      // A in registers: the fragments of two k-tiles, this one's and the previous one's, which products in flight
      // may still read. The compiler knows nothing of those reads: `keep` makes it hold the previous fragments,
      // unchanged, until the products that read them are known to be done.
      unsigned fragments[2][ARegisters ? L::steps : 1][4] = {};
      auto keep = [](const unsigned (&f)[ARegisters ? L::steps : 1][4]) {
#pragma unroll
        for (int j = 0; j < (ARegisters ? L::steps : 1); ++j)
          asm volatile("" ::"r"(f[j][0]), "r"(f[j][1]), "r"(f[j][2]), "r"(f[j][3]) : "memory");
      };
      for (int kt = 0; kt < item.k_tiles; ++kt, ++step) {
        const int s = step % Stages;
        barrier_wait(&full[s], (step / Stages) & 1);
        // Copies by threads are writes of the generic proxy: ordered before the tensor cores' reads (an A in
        // registers is read by the threads' own loads, which the barrier orders).
        if (b_threads || (a_threads && !ARegisters)) asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
        if constexpr (ARegisters) {   // load, round or split, multiply, free the stage
          const std::uint8_t* const tile = smem + s * L::stage_bytes;
          const std::uint32_t b = stage0 + s * L::stage_bytes + L::a_bytes;
          auto multiply = [&](unsigned (&big)[L::steps][4], const unsigned (&before)[L::steps][4]) {
            unsigned small[Passes == 3 ? L::steps : 1][4];
#pragma unroll
            for (int j = 0; j < L::steps; ++j) {
              float raw[4];
              load_fragment<AKMajor>(tile, consumer * atom_rows + warp * 16 + lane / 4, lane, j, raw);
#pragma unroll
              for (int r = 0; r < 4; ++r) {
                if constexpr (Passes == 3) ::portkern::kernel::cuda::atoms::split_tf32(raw[r], big[j][r], small[j][r]);
                else big[j][r] = ::portkern::kernel::cuda::atoms::to_tf32(raw[r]);
              }
            }
            asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#pragma unroll
            for (int j = 0; j < L::steps; ++j) {
              const std::uint64_t db = descriptor(b + j * k_step_bytes, 16, 1024);
              if constexpr (Passes == 3) {
                const std::uint64_t db_small = descriptor(b + L::b_bytes + j * k_step_bytes, 16, 1024);
                wgmma(Wgmma<BN, Type>{}, part, big[j], db, j > 0);
                wgmma(Wgmma<BN, Type>{}, part, big[j], db_small, 1);
                wgmma(Wgmma<BN, Type>{}, part, small[j], db, 1);
              } else {
                wgmma(Wgmma<BN, Type>{}, d, big[j], db, 1);
              }
            }
            asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
            if constexpr (promote) {   // the k-tile's sums complete: add them up, free the stage
              asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
              keep(big), keep(small);
              if (lane == 0) barrier_arrive(&empty[s]);
#pragma unroll
              for (int i = 0; i < BN / 2; ++i) d[i] += part[i];
            } else {   // the previous k-tile's products are done: its stage and fragments are free
              asm volatile("wgmma.wait_group.sync.aligned 1;" ::: "memory");
              keep(before);
              if (held && lane == 0) barrier_arrive(&empty[(step - 1) % Stages]);
              held = true;
            }
          };
          if (kt & 1) multiply(fragments[1], fragments[0]);
          else multiply(fragments[0], fragments[1]);
        } else {
          const std::uint32_t a = stage0 + s * L::stage_bytes + consumer * (atom_rows * row_bytes);
          const std::uint32_t b = stage0 + s * L::stage_bytes + L::a_bytes;
          const int pass = kt % Passes;   // parts of k start on a k-tile's first pass
          asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#pragma unroll
          for (int j = 0; j < L::steps; ++j) {
            const std::uint64_t da = descriptor(a + j * a_step, a_leading, 1024);
            const std::uint64_t db = descriptor(b + j * b_step, b_leading, 1024);
            if constexpr (promote) wgmma<0, 0>(Wgmma<BN, Type>{}, part, da, db, pass > 0 || j > 0);
            else wgmma<AKMajor ? 0 : 1, BKMajor ? 0 : 1>(Wgmma<BN, Type>{}, d, da, db, 1);
          }
          asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
          if (promote && pass == Passes - 1) {   // the k-tile's sums are complete: both stages are free
            asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
            if (lane == 0) {
              if (held) barrier_arrive(&empty[(step - 1) % Stages]);
              barrier_arrive(&empty[s]);
            }
            held = false;
#pragma unroll
            for (int i = 0; i < BN / 2; ++i) d[i] += part[i];
          } else {   // all but this k-tile's products are done: the previous stage is free
            asm volatile("wgmma.wait_group.sync.aligned 1;" ::: "memory");
            if (held && lane == 0) barrier_arrive(&empty[(step - 1) % Stages]);
            held = true;
          }
        }
      }
      // The item's products are done (a wait with none in flight costs nothing, and ptxas need not add its own
      // before the epilogue reads d); the item's last stage is free.
      asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
      if constexpr (ARegisters) keep(fragments[0]), keep(fragments[1]);
      if (held && lane == 0) barrier_arrive(&empty[(step - 1) % Stages]);

      // Split k (the kernel's header): whether this part adds its product to C, the first part's C landed.
      const bool leader = warp == 0 && lane == 0;
      auto sync = [&] { asm volatile("bar.sync %0, 128;" ::"r"(1 + consumer) : "memory"); };
      // (A Finish kernel's product is never split, and its beta is 0: the launch checks.)
      std::uint32_t* const counter =
          !Finish && out.counters ? out.counters + counters_for(item.tile) + consumer : nullptr;
      bool adds = !Finish && out.splits > 1;   // where beta = 1 every part adds at once
      if (counter) {
        if (leader) tickets[consumer] = atomicAdd(counter, 1u);
        sync();
        adds = tickets[consumer] != 0;
        if (adds) {
          if (leader) {
            while (!(load_acquire(counter) & landed)) __nanosleep(64);
            asm volatile("fence.proxy.async.global;" ::: "memory");   // the copy engine's additions come after
            arrive(counter, 1, out.splits);
          }
          sync();
        }
      }

      // The accumulator layout of m64nN: thread (warp, lane) holds rows warp*16 + lane/4 (+8) and, per 8
      // columns j, columns 8j + 2*(lane%4) (+1): d[4j + 2h + q] is row +8h, column +q.
      if (out.store != CStore::threads) {
        static_assert(!Finish || epilogue_fusable<BN, ARegisters, Windows>());
        store_by_engine<BN, Finish>(d, epilogue + consumer * 2 * slab_bytes, map_c, out,
                                      adds ? CStore::engine_add : out.store, item.tm * block_m + consumer * atom_rows,
                                      item.tn * BN, item.problem, consumer, warp, lane);
      } else {
        const std::int64_t row0 = std::int64_t(item.tm) * block_m + consumer * atom_rows + warp * 16 + lane / 4;
        const std::int64_t col0 = std::int64_t(item.tn) * BN + 2 * (lane % 4);
        float* const c = out.c + std::int64_t(item.problem) * out.stride_c;
#pragma unroll
        for (int slab = 0; slab < BN / slab_columns; ++slab) {
          Addends addends[Finish ? 16 : 1];
          if constexpr (Finish) gather_addends(out, row0, col0 + slab_columns * slab, item.problem, addends);
#pragma unroll
          for (int j = 0; j < 4; ++j)
#pragma unroll
            for (int h = 0; h < 2; ++h)
#pragma unroll
              for (int q = 0; q < 2; ++q) {
                const std::int64_t row = row0 + 8 * h, col = col0 + slab_columns * slab + 8 * j + q;
                if (row < out.m && col < out.n) {
                  float* const at = c + out.offset(row, col);
                  const float v = out.alpha * d[4 * (4 * slab + j) + 2 * h + q];
                  if (adds) {
                    atomicAdd(at, v);
                  } else {
                    float value = Finish || out.beta == 0.f ? v : v + out.beta * *at;
                    if constexpr (Finish) value = finish(value, addends[4 * j + 2 * h + q], out.epilogue.relu);
                    *at = value;
                  }
                }
              }
        }
      }
      if (counter && !adds) {   // the first part: once its C is visible to every block, the others may add
        if (leader && out.store != CStore::threads) {
          asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
          asm volatile("fence.proxy.async.global;" ::: "memory");
        }
        __threadfence();
        sync();
        if (leader) __threadfence(), arrive(counter, landed + 1, out.splits);
      }
    }
    // The copy engine's last reads of the buffers, before the block's shared memory goes.
    if (out.store != CStore::threads && threadIdx.x % 128 == 0)
      asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
  }
#else
  __trap();   // compiled for sm_90a only; the host launches it only on compute capability 9.0
#endif
}

}  // namespace portkern::gemm_impl::cuda_wgmma::kernel
