// cpu_packed with A packed ahead of time (prepacked.hpp says what and why).
#include "gemm/cpu_packed/prepacked.hpp"

#include <algorithm>

#include "portkern/checked.hpp"
#include "portkern/kernel/cpu/pack.hpp"

namespace portkern::gemm_impl::cpu_packed {

namespace {

using i64 = std::int64_t;
using kernel::cpu::MicroKernels;

i64 ceil_div(i64 a, i64 b) { return (a + b - 1) / b; }
i64 round_up(i64 a, i64 b) { return ceil_div(a, b) * b; }

constexpr i64 line_bytes = 64;

template <class T>
const MicroKernels<T>& kernels_of(const PackedLayout& layout) {
  const MicroKernels<T>* set = kernel::cpu::microkernels<T>(layout.isa);
  if (!set) fail("portkern::gemm_packed", "this build has no kernels for the CPU the matrix was packed for");
  return *set;
}

// One depth block of the packed A.
struct DepthBlock {
  i64 p0, kc;
  i64 offset;   // of its first panel
};
DepthBlock depth_block(const PackedLayout& l, i64 b) {
  const i64 p0 = b * l.kc;
  return {p0, std::min(l.kc, l.k - p0), p0 * l.padded_m};
}

// The arguments of one micro-kernel call but B's: the depth block, the tile's first column and size, the panel.
template <class T>
struct TileCall {
  const DepthBlock& d;
  i64 jr;
  int vectors, cols, last_rows;
  const T* a;
  i64 a_step;
  T* c;
  i64 ldc;
  T alpha, beta;
  const T* prefetch;
  i64 prefetch_step;
};

// Part of the depth of the product: [begin, end).
struct DepthRange {
  i64 begin, end;
};

// op(B) read in place as a matrix.
template <class T>
struct MatrixB {
  bool trans;
  const T* b;
  i64 ldb;
  static int columns(const MicroKernels<T>& ks, int) { return ks.blocking.nr; }
  // The depth [begin, end) of op(A) * op(B) that columns [jr, jr + cols) need: all of it.
  DepthRange depth(i64, i64, i64 k) const { return {0, k}; }
  void multiply(const MicroKernels<T>& ks, const TileCall<T>& t) const {
    const T* bp = trans ? b + t.jr + t.d.p0 * ldb : b + t.d.p0 + t.jr * ldb;
    ks.kernel(!trans, t.vectors, t.cols)(t.d.kc, t.a, t.a_step, bp, ldb, t.c, t.ldc, t.alpha, t.beta, t.last_rows,
                                         t.prefetch, t.prefetch_step);
  }
};

// B's columns read in place as image patches.
template <class T>
struct PatchB {
  const PatchColumns<T>& p;
  static int columns(const MicroKernels<T>& ks, int vectors) { return ks.blocking.patch_nr[vectors - 1]; }
  // The runs (window rows) that may read the image for some column of [jr, jr + cols) (PatchRows): those of its
  // lowest output row begin highest, those of its highest end lowest. A tile whose rows wrap to the next image
  // has both the first and the last output row. No run at all (a window wholly in a huge border): all of them.
  DepthRange depth(i64 jr, i64 cols, i64 k) const {
    const PatchRows& r = p.rows;
    if (r.out_w == 0) return {0, k};
    const i64 t0 = r.first_row + jr / r.out_w, t1 = r.first_row + (jr + cols - 1) / r.out_w;
    const bool wraps = t1 - t0 >= r.out_h || t0 / r.out_h != t1 / r.out_h;
    const i64 lowest = wraps ? 0 : t0 % r.out_h, highest = wraps ? r.out_h - 1 : t1 % r.out_h;
    const i64 window_rows = ceil_div(k, p.run);
    const i64 first = std::max<i64>(0, r.pad_top - highest * r.stride);
    const i64 last = std::min(window_rows, r.height + r.pad_top - lowest * r.stride);
    if (first >= last) return {0, k};
    return {first * p.run, std::min(k, last * p.run)};
  }
  void multiply(const MicroKernels<T>& ks, const TileCall<T>& t) const {
    // Where the depth block starts in the patch (no division in the common case of one block: it costs as much
    // as a few steps of a short patch).
    const i64 runs = t.d.p0 ? t.d.p0 / p.run : 0, into = t.d.p0 ? t.d.p0 % p.run : 0;
    const T* cols[kernel::cpu::max_nr];
    const i64* offsets = p.offsets + t.jr;
    bool equally_spaced = t.cols > 1;   // a tile inside one output row, mostly (one column has no spacing)
    for (int j = 0; j < t.cols; ++j) {
      cols[j] = p.image + offsets[j] + runs * (p.run + p.skip) + into;
      if (j > 0) equally_spaced &= offsets[j] - offsets[j - 1] == p.column_step;
    }
    ks.patch_kernel(t.vectors, t.cols)(t.d.kc, t.a, t.a_step, cols, equally_spaced ? p.column_step : 0,
                                       p.run - into, p.run, p.skip, t.c, t.ldc, t.alpha, t.beta, t.last_rows,
                                       t.prefetch, t.prefetch_step);
  }
};

// The columns B's tiles come in: the width of the first panel's tiles (all panels but the last are as tall).
template <class T, class B>
i64 quantum(const MicroKernels<T>& ks, const PackedLayout& l, const B& b) {
  return b.columns(ks, int(ceil_div(std::min(l.mr, l.m), ks.blocking.lanes)));
}

// C += the packed panels [r0, r1) times columns [c0, c1) of op(B) (beta on the first depth block).
template <class T, class B>
void multiply_part(const MicroKernels<T>& ks, const PackedLayout& l, const T* packed, const B& b, i64 c0, i64 c1,
                   i64 r0, i64 r1, T alpha, T beta, T* c, i64 ldc, const GemmEpilogue<T>& epilogue) {
  const i64 mr = l.mr, nr = quantum(ks, l, b), lanes = ks.blocking.lanes;
  const i64 line = line_bytes / i64(sizeof(T));
  const i64 blocks = ceil_div(l.k, l.kc);
  // Columns per block of B: kc x NC of B stays in L2 beside the panel being multiplied.
  const i64 NC = std::max(nr, ks.blocking.mc * ks.blocking.kc / l.kc / nr * nr);
  struct Panel {
    const T* data;
    i64 elements;
  };
  auto panel = [&](i64 block, i64 r) {
    const DepthBlock d = depth_block(l, block);
    const i64 rows = std::min(mr, l.m - r * mr);
    return Panel{packed + d.offset + r * mr * d.kc, round_up(rows, lanes) * d.kc};
  };
  for (i64 jc = c0; jc < c1; jc += NC) {
    const i64 nc = std::min(NC, c1 - jc);
    for (i64 block = 0; block < blocks; ++block) {
      const DepthBlock d = depth_block(l, block);
      for (i64 r = r0; r < r1; ++r) {
        // The panel after this one in this loop nest (none after the last).
        Panel next{nullptr, 0};
        if (r + 1 < r1)
          next = panel(block, r + 1);
        else if (block + 1 < blocks)
          next = panel(block + 1, r0);
        else if (jc + NC < c1)
          next = panel(0, r0);
        const i64 per_call = d.kc * line;   // elements one call prefetches: a line per step of k
        const i64 calls = next.data ? ceil_div(next.elements, per_call) : 0;

        const Panel a = panel(block, r);
        const i64 rows = std::min(mr, l.m - r * mr);
        const int vectors = int(ceil_div(rows, lanes));
        const int last_rows = int(rows - (vectors - 1) * lanes);
        const i64 width = b.columns(ks, vectors);
        i64 call = 0;
        for (i64 jr = jc; jr < jc + nc; jr += width, ++call) {
          const int cols = int(std::min(width, jc + nc - jr));
          // The part of this block the tile's columns need (B's depth): the first part starts from beta * C, the
          // last is followed by the epilogue.
          const DepthRange need = b.depth(jr, cols, l.k);
          const i64 p0 = std::max(d.p0, need.begin), p1 = std::min(d.p0 + d.kc, need.end);
          if (p0 >= p1) continue;
          const DepthBlock part{p0, p1 - p0, d.offset};
          T* tile = c + r * mr + jr * ldc;
          const bool fetch = call < calls;
          b.multiply(ks, TileCall<T>{part, jr, vectors, cols, last_rows, a.data + (p0 - d.p0) * vectors * lanes,
                                     vectors * lanes, tile, ldc, alpha, p0 == need.begin ? beta : T(1),
                                     fetch ? next.data + call * per_call : a.data, fetch ? line : 0});
          if (p1 == need.end) epilogue.at(r * mr, jr, ldc).apply(rows, cols, tile, ldc);
        }
      }
    }
  }
}

// C = alpha * packed op(A) * B + beta * C, B read through `b` (MatrixB or PatchB), on a grid of threads.
template <class T, class B>
void run_on_threads(const PackedLayout& l, const T* packed, std::int64_t n, T alpha, const B& b, T beta, T* c,
                    std::int64_t ldc, int threads, const GemmEpilogue<T>& epilogue) {
  const MicroKernels<T>& ks = kernels_of<T>(l);
  const i64 nr = quantum(ks, l, b), panels = l.padded_m / l.mr, col_tiles = ceil_div(n, nr);
  int nt = std::max(1, threads);
  if (double(l.m) * double(n) * double(l.k) < 32768.0) nt = 1;   // does not pay for a parallel region
  // Threads split the panels of A and the columns of B as a grid tm x tn that reads the least per thread: a
  // thread streams its share of A's panels and reads its columns of B, m k / tm + k n / tn elements (panels
  // for small n: 512 x 49 x 4608; columns for wide n: 128 x 784 x 512 ran 0.44 ms split by panels, oneDNN 0.31).
  int tm = 1, tn = 1;
  double least = -1;
  for (int d = 1; d <= nt; ++d) {
    if (nt % d || d > panels || nt / d > col_tiles) continue;
    const double traffic = double(l.m) * double(l.k) / d + double(l.k) * double(n) / double(nt / d);
    if (least < 0 || traffic < least) least = traffic, tm = d, tn = nt / d;
  }
  auto part = [&](int t) {
    const int im = t % tm, in = t / tm;
    const i64 r0 = panels * im / tm, r1 = panels * (im + 1) / tm;
    const i64 c0 = std::min(n, col_tiles * in / tn * nr);
    const i64 c1 = std::min(n, col_tiles * (in + 1) / tn * nr);
    if (r1 > r0 && c1 > c0)
      multiply_part(ks, l, packed, b, c0, c1, r0, r1, alpha, beta, c, ldc, epilogue);
  };
  if (tm * tn == 1) return part(0);
#pragma omp parallel for schedule(static, 1) num_threads(tm * tn)
  for (int t = 0; t < tm * tn; ++t) part(t);
}

}  // namespace

template <class T>
PackedLayout packed_layout(std::int64_t m, std::int64_t k) {
  const MicroKernels<T>& ks = kernel::cpu::active_microkernels<T>();
  PackedLayout l;
  l.isa = ks.isa;
  l.m = m;
  l.k = k;
  l.mr = ks.blocking.mr();
  // Equal depth blocks of at most ~1.25 KC, as the ordinary path cuts them.
  const i64 kc_max = ks.blocking.kc + ks.blocking.kc / 4;
  l.kc = k > 0 ? round_up(ceil_div(k, ceil_div(k, kc_max)), 8) : 1;
  l.padded_m = round_up(m, l.mr);
  const char* fn = "portkern::gemm_pack_a";
  const i64 tail = l.kc * (line_bytes / i64(sizeof(T)));   // the last panel's prefetch stays inside
  l.elements = checked_add(checked_mul(l.padded_m, std::max<i64>(k, 1), fn, "m * k (packed)"), tail, fn,
                           "packed elements");
  return l;
}

template <class T>
void pack_whole_a(const PackedLayout& l, bool trans_a, const T* a, std::int64_t lda, T* dst, int threads) {
  const MicroKernels<T>& ks = kernels_of<T>(l);
  const kernel::cpu::Operands<T> op{trans_a, false, a, lda, nullptr, 0, T(1)};
  const i64 blocks = ceil_div(l.k, l.kc);
  std::fill(dst + l.padded_m * l.k, dst + l.elements, T(0));
#pragma omp parallel for schedule(static) num_threads(std::max(1, threads)) if (blocks > 1)
  for (i64 block = 0; block < blocks; ++block) {
    const DepthBlock d = depth_block(l, block);
    kernel::cpu::pack_a(ks, op, 0, l.m, d.p0, d.kc, dst + d.offset);
  }
}

template <class T>
void run_prepacked(const PackedLayout& l, const T* packed, bool trans_b, std::int64_t n, T alpha, const T* b,
                   std::int64_t ldb, T beta, T* c, std::int64_t ldc, int threads, const GemmEpilogue<T>& epilogue) {
  run_on_threads(l, packed, n, alpha, MatrixB<T>{trans_b, b, ldb}, beta, c, ldc, threads, epilogue);
}

template <class T>
void run_prepacked_patches(const PackedLayout& l, const T* packed, std::int64_t n, T alpha,
                           const PatchColumns<T>& b, T beta, T* c, std::int64_t ldc, int threads,
                           const GemmEpilogue<T>& epilogue) {
  run_on_threads(l, packed, n, alpha, PatchB<T>{b}, beta, c, ldc, threads, epilogue);
}

#define PORTKERN_PREPACKED(T)                                                                                         \
  template PackedLayout packed_layout<T>(std::int64_t, std::int64_t);                                                 \
  template void pack_whole_a<T>(const PackedLayout&, bool, const T*, std::int64_t, T*, int);                         \
  template void run_prepacked<T>(const PackedLayout&, const T*, bool, std::int64_t, T, const T*, std::int64_t, T, T*, \
                                 std::int64_t, int, const GemmEpilogue<T>&);                                           \
  template void run_prepacked_patches<T>(const PackedLayout&, const T*, std::int64_t, T, const PatchColumns<T>&, T,   \
                                         T*, std::int64_t, int, const GemmEpilogue<T>&);
PORTKERN_PREPACKED(float)
PORTKERN_PREPACKED(double)
#undef PORTKERN_PREPACKED

}  // namespace portkern::gemm_impl::cpu_packed
