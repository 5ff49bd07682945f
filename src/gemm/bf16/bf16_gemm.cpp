// The BF16 GEMM's frame (bf16_gemm.hpp): blocking, packing into the chunk layout, the thread grid, and the
// plain C++ micro-kernel. The per-ISA kernels are in kernel_<isa>.cpp.
#include "gemm/bf16/bf16_gemm.hpp"

#include <omp.h>

#include <algorithm>
#include <cstring>

namespace portkern::gemm_impl::bf16 {

namespace {

using i64 = std::int64_t;

// KC x NC of B (1 MiB) and MC x KC of A (256 KiB) stay in the 2 MiB L2 of a Sapphire Rapids core; a kernel
// call sums over up to 32 chunks before its block of C is written (KC 512 / MC 256 / NC 1024 before: 0.99-1.19x
// in interleaved pairs, most on k of 1024-1152, where the longer sums halve the writes of C).
constexpr i64 kc_max = 1024, mc_max = 128, nc_max = 512, in_place_rows = 512;

i64 ceil_div(i64 a, i64 b) { return (a + b - 1) / b; }

// op(X)(row, depth) = x[row * row_stride + depth * depth_stride]: A's rows and k, or B's columns and k.
struct Operand {
  const bfloat16* x;
  i64 row_stride, depth_stride;
  Bits at(i64 row, i64 depth) const { return x[row * row_stride + depth * depth_stride].bits; }
};

// Where row i (0-31) and k = q (0-31) of a chunk of A's micro-panel lie: tile i / 16, VNNI pairs of k.
constexpr int vnni_at(int i, int q) { return i / 16 * tile_size + (q / 2) * 32 + 2 * (i % 16) + q % 2; }

// Packs rows [r0, r0 + rows) x depth [k0, k0 + depth) of A into micro-panels of VNNI tiles ([16 k pairs][16
// rows][2]), zeros beyond rows and depth. Contiguous rows go to the kernels' own chunk packing.
void pack_a(const KernelSet& kernels, const Operand& a, i64 r0, i64 rows, i64 k0, i64 depth, Bits* out) {
  const i64 chunks = ceil_div(depth, chunk_k);
  for (i64 r = 0; r < rows; r += block_rows)
    for (i64 t = 0; t < chunks; ++t) {
      Bits* o = out + (r / block_rows * chunks + t) * chunk_size;
      const int chunk_rows = int(std::min<i64>(block_rows, rows - r));
      const int chunk_depth = int(std::min<i64>(chunk_k, depth - t * chunk_k));
      if (a.row_stride == 1) {
        kernels.pack_a_chunk(&a.x[(r0 + r) + (k0 + t * chunk_k) * a.depth_stride].bits, a.depth_stride, chunk_rows,
                             chunk_depth, o);
        continue;
      }
      for (int q = 0; q < chunk_k; ++q)
        for (int i = 0; i < block_rows; ++i) {
          const bool inside = i < chunk_rows && q < chunk_depth;
          o[vnni_at(i, q)] = inside ? a.at(r0 + r + i, k0 + t * chunk_k + q) : Bits(0);
        }
    }
}

// Packs columns [c0, c0 + cols) (cols <= 32) x depth [k0, k0 + depth) of B into one micro-panel of tiles ([16
// columns][32 k]), zeros outside.
void pack_b(const Operand& b, i64 c0, i64 cols, i64 k0, i64 depth, Bits* out) {
  const i64 chunks = ceil_div(depth, chunk_k), whole = b.depth_stride == 1 ? depth / chunk_k : 0;
  for (i64 j = 0; j < block_cols; ++j) {
    Bits* column = out + j / 16 * tile_size + j % 16 * chunk_k;   // its row of each chunk's tile
    const i64 t0 = j < cols ? whole : 0;   // a column contiguous along k: its whole chunks are copies, in order
    for (i64 t = 0; t < t0; ++t)
      std::memcpy(column + t * chunk_size, b.x + (c0 + j) * b.row_stride + k0 + t * chunk_k, chunk_k * sizeof(Bits));
    for (i64 t = t0; t < chunks; ++t)
      for (int q = 0; q < chunk_k; ++q)
        column[t * chunk_size + q] = j < cols && t * chunk_k + q < depth ? b.at(c0 + j, k0 + t * chunk_k + q) : Bits(0);
  }
}

void generic_pack_a_chunk(const Bits* a, i64 lda, int rows, int depth, Bits* out) {
  for (int q = 0; q < chunk_k; ++q)
    for (int i = 0; i < block_rows; ++i)
      out[vnni_at(i, q)] = i < rows && q < depth ? a[i + q * lda] : Bits(0);
}

float to_float(Bits bits) { return float(bfloat16::from_bits(bits)); }

// Each chunk is widened to float first (A as [k][32 rows], B as [32 columns][k]), so the sums' loop over rows is
// a plain float multiply-add loop the compiler vectorises.
void generic_kernel(i64 chunks, const Bits* a, const BPanel& b, float* c, i64 ldc, int rows, int cols, float alpha,
                    float beta) {
  float sums[block_cols][block_rows] = {};
  float x[chunk_k][block_rows], y[block_cols][chunk_k];
  for (i64 t = 0; t < chunks; ++t) {
    for (int q = 0; q < chunk_k; ++q)
      for (int i = 0; i < block_rows; ++i)
        x[q][i] = to_float(a[t * chunk_size + vnni_at(i, q)]);
    for (int j = 0; j < block_cols; ++j)
      for (int q = 0; q < chunk_k; ++q)
        y[j][q] = j < cols ? to_float(b.at[t * b.chunk_step + j / 16 * b.half_step + (j % 16) * b.column_step + q]) : 0.f;
    for (int j = 0; j < cols; ++j)
      for (int q = 0; q < chunk_k; ++q)
        for (int i = 0; i < block_rows; ++i) sums[j][i] += x[q][i] * y[j][q];
  }
  for (int j = 0; j < cols; ++j)
    for (int i = 0; i < rows; ++i) {
      float& cij = c[i + j * ldc];
      cij = beta == 0.f ? alpha * sums[j][i] : alpha * sums[j][i] + beta * cij;
    }
}

void nothing() {}

// One thread's part: C[m0:m1, n0:n1], packing into its own buffers.
void run_part(const KernelSet& kernels, const Operand& a, const Operand& b, const GemmArgs<float, bfloat16>& p,
              i64 m0, i64 m1, i64 n0, i64 n1) {
  thread_local std::vector<Bits> packed_a, packed_b;
  const i64 kc = ceil_div(ceil_div(p.k, ceil_div(p.k, kc_max)), chunk_k) * chunk_k;   // equal blocks of whole chunks
  packed_a.resize(ceil_div(mc_max, block_rows) * ceil_div(kc, chunk_k) * chunk_size);
  packed_b.resize(ceil_div(nc_max, block_cols) * ceil_div(kc, chunk_k) * chunk_size);
  kernels.begin();
  for (i64 jc = n0; jc < n1; jc += nc_max) {
    const i64 nc = std::min(nc_max, n1 - jc);
    for (i64 pc = 0; pc < p.k; pc += kc) {
      const i64 depth = std::min(kc, p.k - pc), chunks = ceil_div(depth, chunk_k);
      const float beta = pc == 0 ? p.beta : 1.f;
      // B's whole micro-panels are read in place when its columns are contiguous along k and at most 512 rows
      // use them (more read a packed copy from L2; in place they came from memory each time, 0.67-0.8x on
      // squares of 2048 and 4096); the rest are packed.
      const bool in_place = b.depth_stride == 1 && depth % chunk_k == 0 && m1 - m0 <= in_place_rows;
      thread_local std::vector<BPanel> panels;
      panels.clear();
      for (i64 jr = 0; jr < nc; jr += block_cols) {
        Bits* packed = packed_b.data() + jr / block_cols * chunks * chunk_size;
        if (in_place && nc - jr >= block_cols) {
          panels.push_back({&b.x[(jc + jr) * b.row_stride + pc].bits, b.row_stride, 16 * b.row_stride, chunk_k});
          continue;
        }
        pack_b(b, jc + jr, std::min<i64>(block_cols, nc - jr), pc, depth, packed);
        panels.push_back({packed, chunk_k, tile_size, chunk_size});
      }
      for (i64 ic = m0; ic < m1; ic += mc_max) {
        const i64 mc = std::min(mc_max, m1 - ic);
        pack_a(kernels, a, ic, mc, pc, depth, packed_a.data());
        for (i64 jr = 0; jr < nc; jr += block_cols)
          for (i64 ir = 0; ir < mc; ir += block_rows)
            kernels.kernel(chunks, packed_a.data() + ir / block_rows * chunks * chunk_size, panels[jr / block_cols],
                           p.c + (ic + ir) + (jc + jr) * p.ldc, p.ldc, int(std::min<i64>(block_rows, mc - ir)),
                           int(std::min<i64>(block_cols, nc - jr)), p.alpha, beta);
      }
    }
  }
  kernels.end();
}

// The thread grid tm x tn (tm * tn <= threads) whose largest part costs least: its 32 x 32 blocks, plus the
// micro-panels of A and B it packs, each about 1.4 blocks' worth of AMX time (a part packs all of the A rows and
// B columns it multiplies, so splitting n repacks A and splitting m repacks B). Ties keep fewer threads.
void choose_grid(i64 m, i64 n, i64 k, int threads, int& tm, int& tn) {
  tm = tn = 1;
  if (2.0 * m * n * k < 4e6) return;   // below about 20 us: one thread
  const i64 mb = ceil_div(m, block_rows), nb = ceil_div(n, block_cols);
  auto cost = [&](int x, int y) {
    const double rows = double(ceil_div(mb, x)), cols = double(ceil_div(nb, y));
    return rows * cols + 1.4 * (rows + cols);
  };
  double best = cost(1, 1);
  for (int t = 2; t <= threads; ++t)
    for (int x = 1; x <= t; ++x)
      if (t % x == 0 && cost(x, t / x) < best) best = cost(x, t / x), tm = x, tn = t / x;
}

}  // namespace

const KernelSet& generic_kernels() {
  static const KernelSet set{"generic", generic_kernel, generic_pack_a_chunk, nullptr, nothing, nothing};
  return set;
}

std::vector<KernelSet> kernels_here() {
  std::vector<KernelSet> sets;
  if (const KernelSet* s = amx_kernels()) sets.push_back(*s);
  if (const KernelSet* s = avx512_kernels()) sets.push_back(*s);
  sets.push_back(generic_kernels());
  return sets;
}

void run(const KernelSet& kernels, bool trans_a, bool trans_b, const GemmArgs<float, bfloat16>& p, int threads) {
  // Problem `item`'s arguments, and its op(A)(i, l) and op(B)(l, j) as rows / columns and depth.
  auto args_of = [&](i64 item) {
    GemmArgs<float, bfloat16> q = p;
    q.a += item * p.stride_a, q.b += item * p.stride_b, q.c += item * p.stride_c;
    return q;
  };
  auto a_of = [&](i64 item) { return Operand{args_of(item).a, trans_a ? p.lda : 1, trans_a ? 1 : p.lda}; };
  auto b_of = [&](i64 item) { return Operand{args_of(item).b, trans_b ? 1 : p.ldb, trans_b ? p.ldb : 1}; };
  if (kernels.direct && p.m <= direct_rows && !trans_b) {   // few rows: dot products on B, columns over threads
    const int parts = 2.0 * p.m * p.n * p.k * p.batch < 1e6 ? 1 : threads;
    const i64 groups = ceil_div(p.n, 4);
#pragma omp parallel for collapse(2) schedule(static) num_threads(parts) if (parts > 1)
    for (i64 item = 0; item < p.batch; ++item)
      for (int part = 0; part < parts; ++part) {
        const i64 n0 = std::min(p.n, groups * part / parts * 4), n1 = std::min(p.n, groups * (part + 1) / parts * 4);
        if (n0 < n1) kernels.direct(args_of(item), trans_a, n0, n1);
      }
    return;
  }
  // Whole problems per thread when they divide evenly or are many.
  if (threads > 1 && p.batch > 1 && (p.batch % threads == 0 || p.batch >= 4 * threads)) {
#pragma omp parallel for schedule(static) num_threads(threads)
    for (i64 item = 0; item < p.batch; ++item) run_part(kernels, a_of(item), b_of(item), args_of(item), 0, p.m, 0, p.n);
    return;
  }
  int tm, tn;
  choose_grid(p.m, p.n, p.k, threads, tm, tn);
  const i64 mb = ceil_div(p.m, block_rows), nb = ceil_div(p.n, block_cols);
  for (i64 item = 0; item < p.batch; ++item) {
#pragma omp parallel num_threads(tm * tn) if (tm * tn > 1)
    {
      const int t = omp_get_thread_num(), x = t / tn, y = t % tn;
      const i64 m0 = std::min(p.m, mb * x / tm * block_rows), m1 = std::min(p.m, mb * (x + 1) / tm * block_rows);
      const i64 n0 = std::min(p.n, nb * y / tn * block_cols), n1 = std::min(p.n, nb * (y + 1) / tn * block_cols);
      if (m0 < m1 && n0 < n1) run_part(kernels, a_of(item), b_of(item), args_of(item), m0, m1, n0, n1);
    }
  }
}

}  // namespace portkern::gemm_impl::bf16
