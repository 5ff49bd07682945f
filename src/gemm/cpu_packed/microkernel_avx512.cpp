// The AVX-512 micro-kernels of the packed GEMM (portkern/kernel/cpu/microkernel.hpp), with this ISA's packing
// (16 x 16 / 8 x 8 in-register transposes, masked column copies) and GEMV routines. Compiled for x86-64-v4
// (AVX-512 F/VL/DQ/BW; cmake/cpu_simd.cmake); run only where the device class cpu-avx512 is chosen.
//
// Register tile: 4 zmm x 6 columns (24 accumulators; 4 A loads + 6 broadcasts per 24 FMAs) measured best on
// Zen 4 against 2x12, 3x8, 2x14 and 1x16. float: MR x NR = 64 x 6, KC 512, MC 288; double: 32 x 6, KC 256,
// MC 192 (KC x NR of B = 12 KiB in L1 = 32 KiB; MC x KC of A = 576 KiB, about half of L2 = 1 MiB).
// The last vector of A is loaded through a mask, so A can be read in place (reads_unpacked_a). Patch tiles over
// float panels of 1-2 vectors are 12 columns wide, of 3 vectors 8 (Blocking::patch_nr), and equally spaced columns
// are addressed from a few pointers (run_patches). Measured on a Xeon, 2026-11-28: 4 x 7 tiles spilled and gained
// nothing on ResNet-50's widths, all multiples of 7.
#if defined(__x86_64__)
#if !defined(__AVX512F__) || !defined(__AVX512VL__) || !defined(__AVX512DQ__) || !defined(__AVX512BW__)
#error "microkernel_avx512.cpp needs its own target flags (-march=x86-64-v4, cmake/cpu_simd.cmake)"
#endif

#include <immintrin.h>

#include <cstdint>

#include "gemm/cpu_packed/kernel_set.hpp"

namespace portkern::kernel::cpu {
namespace {

using i64 = std::int64_t;

i64 lesser(i64 a, i64 b) { return a < b ? a : b; }
i64 clamp(i64 x, i64 lo, i64 hi) { return x < lo ? lo : x > hi ? hi : x; }
i64 ceil_div(i64 a, i64 b) { return (a + b - 1) / b; }
i64 round_up(i64 a, i64 b) { return ceil_div(a, b) * b; }

// Vector wrappers: 512-bit vectors with masks.
template <class T>
struct Z;
template <>
struct Z<float> {
  using V = __m512;
  using M = __mmask16;
  static constexpr int L = 16;
  static V zero() { return _mm512_setzero_ps(); }
  static V set1(float x) { return _mm512_set1_ps(x); }
  static V load(const float* p) { return _mm512_loadu_ps(p); }
  static V load(M k, const float* p) { return _mm512_maskz_loadu_ps(k, p); }
  static void store(float* p, V v) { _mm512_storeu_ps(p, v); }
  static void store(M k, float* p, V v) { _mm512_mask_storeu_ps(p, k, v); }
  static V fma(V a, V b, V c) { return _mm512_fmadd_ps(a, b, c); }
  static V mul(V a, V b) { return _mm512_mul_ps(a, b); }
  static float sum(V v) { return _mm512_reduce_add_ps(v); }
  static M mask(int n) { return static_cast<M>((1u << n) - 1u); }  // n in 1..16
};
template <>
struct Z<double> {
  using V = __m512d;
  using M = __mmask8;
  static constexpr int L = 8;
  static V zero() { return _mm512_setzero_pd(); }
  static V set1(double x) { return _mm512_set1_pd(x); }
  static V load(const double* p) { return _mm512_loadu_pd(p); }
  static V load(M k, const double* p) { return _mm512_maskz_loadu_pd(k, p); }
  static void store(double* p, V v) { _mm512_storeu_pd(p, v); }
  static void store(M k, double* p, V v) { _mm512_mask_storeu_pd(p, k, v); }
  static V fma(V a, V b, V c) { return _mm512_fmadd_pd(a, b, c); }
  static V mul(V a, V b) { return _mm512_mul_pd(a, b); }
  static double sum(V v) { return _mm512_reduce_add_pd(v); }
  static M mask(int n) { return static_cast<M>((1u << n) - 1u); }  // n in 1..8
};

struct Avx512Kernel {
template <class T, int MV, int NC>
using Tile = typename Z<T>::V[MV][NC];

template <class T, int MV, int NC>
static void zero(Tile<T, MV, NC>& acc, const T* c, i64 ldc) {
#pragma GCC unroll 64
  for (int j = 0; j < NC; ++j)
#pragma GCC unroll 8
    for (int v = 0; v < MV; ++v) acc[v][j] = Z<T>::zero();
  // The C tile is needed only at the end: start bringing it in now.
#pragma GCC unroll 64
  for (int j = 0; j < NC; ++j) {
#pragma GCC unroll 8
    for (int v = 0; v < MV; ++v) _mm_prefetch(reinterpret_cast<const char*>(c + j * ldc + v * Z<T>::L), _MM_HINT_T0);
    _mm_prefetch(reinterpret_cast<const char*>(c + j * ldc + MV * Z<T>::L - 1), _MM_HINT_T0);
  }
}

// acc += A(:, p) * B(p, 0:NC), B(p, j) = b(j); then a moves to column p + 1.
template <class T, int MV, int NC, class BAt>
static void step(Tile<T, MV, NC>& acc, const T* __restrict& a, i64 as, typename Z<T>::M km, BAt b) {
  using W = Z<T>;
  typename W::V av[MV];
#pragma GCC unroll 8
  for (int v = 0; v < MV - 1; ++v) av[v] = W::load(a + v * W::L);
  av[MV - 1] = W::load(km, a + (MV - 1) * W::L);
#pragma GCC unroll 64
  for (int j = 0; j < NC; ++j) {
    const typename W::V bv = W::set1(b(j));
#pragma GCC unroll 8
    for (int v = 0; v < MV; ++v) acc[v][j] = W::fma(av[v], bv, acc[v][j]);
  }
  a += as;
}

template <class T, int MV, int NC>
static void store(const Tile<T, MV, NC>& acc, T* c, i64 ldc, T alpha, T beta, typename Z<T>::M km) {
  using W = Z<T>;
  constexpr int L = W::L;
  const typename W::V va = W::set1(alpha);
  if (beta == T(0) && alpha == T(1)) {   // the convolutions' case: no multiply on the FMA ports
#pragma GCC unroll 64
    for (int j = 0; j < NC; ++j) {
      T* cj = c + j * ldc;
#pragma GCC unroll 8
      for (int v = 0; v < MV - 1; ++v) W::store(cj + v * L, acc[v][j]);
      W::store(km, cj + (MV - 1) * L, acc[MV - 1][j]);
    }
  } else if (beta == T(0)) {
#pragma GCC unroll 64
    for (int j = 0; j < NC; ++j) {
      T* cj = c + j * ldc;
#pragma GCC unroll 8
      for (int v = 0; v < MV - 1; ++v) W::store(cj + v * L, W::mul(acc[v][j], va));
      W::store(km, cj + (MV - 1) * L, W::mul(acc[MV - 1][j], va));
    }
  } else {
    const typename W::V vb = W::set1(beta);
#pragma GCC unroll 64
    for (int j = 0; j < NC; ++j) {
      T* cj = c + j * ldc;
#pragma GCC unroll 8
      for (int v = 0; v < MV - 1; ++v)
        W::store(cj + v * L, W::fma(vb, W::load(cj + v * L), W::mul(acc[v][j], va)));
      T* cl = cj + (MV - 1) * L;
      W::store(km, cl, W::fma(vb, W::load(km, cl), W::mul(acc[MV - 1][j], va)));
    }
  }
}

template <class T, int MV, int NC, bool BCOL>
static void run(i64 kc, const T* __restrict a, i64 as, const T* __restrict b, i64 bs, T* __restrict c, i64 ldc,
                T alpha, T beta, int mlast, const T* prefetch, i64 prefetch_step) {
  const auto km = Z<T>::mask(mlast);
  Tile<T, MV, NC> acc;
  zero<T, MV, NC>(acc, c, ldc);
#pragma GCC unroll 4
  for (i64 p = 0; p < kc; ++p) {
    _mm_prefetch(reinterpret_cast<const char*>(prefetch + p * prefetch_step), _MM_HINT_T2);
    step<T, MV, NC>(acc, a, as, km, [&](int j) { return BCOL ? b[j * bs] : b[j]; });
    b += BCOL ? 1 : bs;
  }
  store<T, MV, NC>(acc, c, ldc, alpha, beta, km);
}

template <class T, int MV, int NC>
static void run_patches(i64 kc, const T* __restrict a, i64 as, const T* const* cols, i64 column_step, i64 run_left,
                        i64 run, i64 skip, T* __restrict c, i64 ldc, T alpha, T beta, int mlast, const T* prefetch,
                        i64 prefetch_step) {
  const auto km = Z<T>::mask(mlast);
  Tile<T, MV, NC> acc;
  zero<T, MV, NC>(acc, c, ldc);
  if (column_step > 0) {
    // Equally spaced columns: one pointer per three of them, the others an index (column_step, 2 column_step)
    // away in the addressing mode, so the pointers fit the general registers.
    constexpr int G = (NC + 2) / 3;
    const T* base[G];
#pragma GCC unroll 16
    for (int g = 0; g < G; ++g) base[g] = cols[0] + 3 * g * column_step;
    for (i64 p0 = 0, steps = run_left; p0 < kc; p0 += steps, steps = run) {
      steps = lesser(steps, kc - p0);
#pragma GCC unroll 4
      for (i64 p = 0; p < steps; ++p) {
        _mm_prefetch(reinterpret_cast<const char*>(prefetch + (p0 + p) * prefetch_step), _MM_HINT_T2);
        i64 at[3] = {p, p + column_step, p + 2 * column_step};
        // Opaque to the optimiser, so that it indexes the few pointers instead of making one per column.
        asm("" : "+r"(at[1]), "+r"(at[2]));
        step<T, MV, NC>(acc, a, as, km, [&](int j) { return base[j / 3][at[j % 3]]; });
      }
#pragma GCC unroll 16
      for (int g = 0; g < G; ++g) base[g] += steps + skip;
    }
    store<T, MV, NC>(acc, c, ldc, alpha, beta, km);
    return;
  }
  const T* b[NC];
#pragma GCC unroll 64
  for (int j = 0; j < NC; ++j) b[j] = cols[j];
  for (i64 p0 = 0, steps = run_left; p0 < kc; p0 += steps, steps = run) {
    steps = lesser(steps, kc - p0);
#pragma GCC unroll 4
    for (i64 p = 0; p < steps; ++p) {
      _mm_prefetch(reinterpret_cast<const char*>(prefetch + (p0 + p) * prefetch_step), _MM_HINT_T2);
      step<T, MV, NC>(acc, a, as, km, [&](int j) { return b[j][p]; });
    }
#pragma GCC unroll 64
    for (int j = 0; j < NC; ++j) b[j] += steps + skip;
  }
  store<T, MV, NC>(acc, c, ldc, alpha, beta, km);
}
};

// The patch-row kernels (microkernel.hpp): a row of output pixels of a first layer, MV vectors of output channels
// by NC pixels a tile (1 x 28, 2 x 14, 3 x 9: 27-28 accumulators; 4 x 6, where 4 x 7 spilled: GCC broadcasts into
// a register of its own once a broadcast feeds 4 FMAs), every tap one A load per vector and NC broadcast FMAs
// addressed from one pointer plus a constant (column j at j * CS floats), the epilogue fused into the stores.
// Against the tile-by-tile patch kernels (1 x 12, 2 x 12, 4 x 6 through the GEMM frame) it saves the frame's
// per-tile work, the runtime column addressing and the prefetches, and amortises a tile's stores over more FMAs.
// In L1 (3x3x3 windows, Zen 5) 1 x 28 and 2 x 14 tiles ran at 93-94% of the FMA peak; the 1 x 12 patch kernel
// inside the GEMM at 64%.
template <int MV, int NC, int CS>
void run_patch_row(i64 cols, const float* a, const float* image, i64 window_rows, i64 run, i64 row_step, float* c,
                   i64 ldc, int last_rows, const float* bias, const float* residual, bool relu) {
  using W = Z<float>;
  constexpr int L = W::L;
  const auto km = W::mask(last_rows);
  for (i64 j0 = 0; j0 < cols; j0 += NC) {
    // The last tile ends at the row's end, overlapping the one before: its first `done` columns are stored already.
    const i64 start = lesser(j0, cols - NC);
    const int done = int(j0 - start);
    __m512 acc[MV][NC];
#pragma GCC unroll 32
    for (int j = 0; j < NC; ++j)
#pragma GCC unroll 4
      for (int v = 0; v < MV; ++v) acc[v][j] = W::zero();
    const float* ap = a;
    const float* row = image + start * CS;
    for (i64 r = 0; r < window_rows; ++r, row += row_step) {
      for (i64 q = 0; q < run; ++q) {
        const float* x = row + q;
        // Opaque, so that the broadcasts of neighbouring taps are not merged into registers the tile needs.
        asm("" : "+r"(x));
        __m512 av[MV];
#pragma GCC unroll 4
        for (int v = 0; v < MV; ++v) av[v] = W::load(ap + v * L);
        ap += MV * L;
#pragma GCC unroll 32
        for (int j = 0; j < NC; ++j) {
          const __m512 b = W::set1(x[j * CS]);
#pragma GCC unroll 4
          for (int v = 0; v < MV; ++v) acc[v][j] = W::fma(av[v], b, acc[v][j]);
        }
      }
    }
    // The epilogue as the epilogue of the GEMM applies it: (C + residual) + bias, then ReLU (NaN stays NaN).
    const __m512 zero = W::zero();
    i64 at = start * ldc;   // of column j in C and the residual
#pragma GCC unroll 32
    for (int j = 0; j < NC; ++j, at += ldc) {
      if (j < done) continue;
#pragma GCC unroll 4
      for (int v = 0; v < MV; ++v) {
        const auto k = v == MV - 1 ? km : W::mask(L);
        __m512 y = acc[v][j];
        if (residual) y = _mm512_add_ps(y, W::load(k, residual + at + v * L));
        if (bias) y = _mm512_add_ps(y, W::load(k, bias + v * L));
        if (relu) y = _mm512_max_ps(zero, y);
        W::store(k, c + at + v * L, y);
      }
    }
  }
}

// The patch-row kernels of panels of MV vectors for the column steps CS... (the rest stay nullptr).
template <int MV, int NC, int... CS>
void fill_patch_rows(MicroKernels<float>& set) {
  ((set.patch_row_kernels[MV - 1][CS - 1] = &run_patch_row<MV, NC, CS>), ...);
  set.blocking.patch_row_nr[MV - 1] = NC;
}

// Transposing copy, the common core of packing A^T and B:
//   dst[p*wo + j] = j < wv ? src[j*ld + p] : 0      for p < kc, j < wo (wo >= wv).
// AVX-512: 16 x 16 (float) or 8 x 8 (double) blocks transposed in registers, masked at the edges.
void transpose16(__m512 r[16]) {
  __m512 t[16];
  for (int i = 0; i < 16; i += 2) {  // t[i] lane l: (r_i, r_i+1) interleaved at columns 4l, 4l+1
    t[i] = _mm512_unpacklo_ps(r[i], r[i + 1]);
    t[i + 1] = _mm512_unpackhi_ps(r[i], r[i + 1]);
  }
  for (int i = 0; i < 16; i += 4) {  // r[4g+q] lane l: column 4l+q of rows 4g..4g+3
    const __m512d a = _mm512_castps_pd(t[i]), b = _mm512_castps_pd(t[i + 1]);
    const __m512d c = _mm512_castps_pd(t[i + 2]), d = _mm512_castps_pd(t[i + 3]);
    r[i] = _mm512_castpd_ps(_mm512_unpacklo_pd(a, c));
    r[i + 1] = _mm512_castpd_ps(_mm512_unpackhi_pd(a, c));
    r[i + 2] = _mm512_castpd_ps(_mm512_unpacklo_pd(b, d));
    r[i + 3] = _mm512_castpd_ps(_mm512_unpackhi_pd(b, d));
  }
  for (int q = 0; q < 4; ++q) {  // gather the four 128-bit lanes of each column
    t[q] = _mm512_shuffle_f32x4(r[q], r[4 + q], 0x88);
    t[4 + q] = _mm512_shuffle_f32x4(r[q], r[4 + q], 0xDD);
    t[8 + q] = _mm512_shuffle_f32x4(r[8 + q], r[12 + q], 0x88);
    t[12 + q] = _mm512_shuffle_f32x4(r[8 + q], r[12 + q], 0xDD);
  }
  for (int q = 0; q < 4; ++q) {
    r[q] = _mm512_shuffle_f32x4(t[q], t[8 + q], 0x88);
    r[8 + q] = _mm512_shuffle_f32x4(t[q], t[8 + q], 0xDD);
    r[4 + q] = _mm512_shuffle_f32x4(t[4 + q], t[12 + q], 0x88);
    r[12 + q] = _mm512_shuffle_f32x4(t[4 + q], t[12 + q], 0xDD);
  }
}
void transpose8(__m512d r[8]) {
  __m512d t[8];
  for (int i = 0; i < 8; i += 2) {  // t[2g+h] lane l: column 2l+h of rows 2g, 2g+1
    t[i] = _mm512_unpacklo_pd(r[i], r[i + 1]);
    t[i + 1] = _mm512_unpackhi_pd(r[i], r[i + 1]);
  }
  for (int h = 0; h < 2; ++h) {
    const __m512d x0 = _mm512_shuffle_f64x2(t[h], t[2 + h], 0x88), x1 = _mm512_shuffle_f64x2(t[h], t[2 + h], 0xDD);
    const __m512d y0 = _mm512_shuffle_f64x2(t[4 + h], t[6 + h], 0x88);
    const __m512d y1 = _mm512_shuffle_f64x2(t[4 + h], t[6 + h], 0xDD);
    r[h] = _mm512_shuffle_f64x2(x0, y0, 0x88);
    r[4 + h] = _mm512_shuffle_f64x2(x0, y0, 0xDD);
    r[2 + h] = _mm512_shuffle_f64x2(x1, y1, 0x88);
    r[6 + h] = _mm512_shuffle_f64x2(x1, y1, 0xDD);
  }
}
template <class T>
void pack_transposed_avx512(const T* src, i64 ld, i64 wv, i64 wo, i64 kc, T* dst) {
  using W = Z<T>;
  using V = typename W::V;
  constexpr int L = W::L;
  for (i64 j0 = 0; j0 < wo; j0 += L) {
    const int jv = static_cast<int>(clamp(wv - j0, 0, L));  // valid source rows in block
    const auto sm = W::mask(static_cast<int>(lesser(L, wo - j0)));
    for (i64 p0 = 0; p0 < kc; p0 += L) {
      const int pw = static_cast<int>(lesser(L, kc - p0));
      const auto lm = W::mask(pw);
      V r[L];
#pragma GCC unroll 16
      for (int j = 0; j < L; ++j) r[j] = j < jv ? W::load(lm, src + (j0 + j) * ld + p0) : W::zero();
      if constexpr (L == 16)
        transpose16(r);
      else
        transpose8(r);
      for (int p = 0; p < pw; ++p) W::store(sm, dst + (p0 + p) * wo + j0, r[p]);
    }
  }
}

// Prefetches the cache lines of [p, p + count) into L2.
template <class T>
void prefetch_range(const T* p, i64 count) {
  const char* b = reinterpret_cast<const char*>(reinterpret_cast<std::uintptr_t>(p) & ~std::uintptr_t(63));
  const char* e = reinterpret_cast<const char*>(p + count);
  for (; b < e; b += 64) __builtin_prefetch(b, 0, 2);  // into L2
}

// Column sweep, the core of packing A: column p of src (contiguous, `rows` elements) is scattered
// into panels of mr rows: panel r (width w = its rows rounded up to the vector length, zero-padded)
// starts at dst + r*mr*kc and holds (i, p) at [p*w + i]. Whole columns are read in order, which
// keeps the reads sequential; a block larger than one panel is prefetched a few columns ahead.
template <class T>
void pack_columns_avx512(const T* src, i64 ld, i64 rows, i64 kc, i64 mr, T* dst) {
  using W = Z<T>;
  constexpr int L = W::L;
  const i64 full = rows / mr * mr, tail = rows - full, wt = round_up(tail, L);
  const auto tm = W::mask(static_cast<int>(tail - (wt - L)));  // valid rows of the last vector
  const bool prefetch = rows > mr;
  for (i64 p = 0; p < kc; ++p) {
    const T* s = src + p * ld;
    if (prefetch && p + 4 < kc) prefetch_range(s + 4 * ld, rows);
    for (i64 ir = 0; ir < full; ir += mr) {
      T* d = dst + ir * kc + p * mr;
      for (i64 i = 0; i < mr; i += L) W::store(d + i, W::load(s + ir + i));
    }
    if (tail) {
      T* d = dst + full * kc + p * wt;
      for (i64 i = 0; i + L < wt; i += L) W::store(d + i, W::load(s + full + i));
      W::store(d + wt - L, W::load(tm, s + full + wt - L));  // zero padding comes with the mask
    }
  }
}

// y[r*ys] = alpha * dot(M + r*ldm, x) + beta * y[r*ys] for r < rows; rows of M and x have length k.
template <class T>
void gemv_dot_avx512(i64 rows, i64 k, const T* m, i64 ldm, const T* x, T alpha, T beta, T* y,
                               i64 ys) {
  using W = Z<T>;
  using V = typename W::V;
  constexpr int L = W::L;
  const i64 kv = k / L * L;
  const auto km = W::mask(static_cast<int>(k - kv == 0 ? L : k - kv));
  i64 r = 0;
  auto finish = [&](i64 rr, T s) {
    T* yy = y + rr * ys;
    *yy = beta == T(0) ? alpha * s : alpha * s + beta * *yy;
  };
  for (; r + 4 <= rows; r += 4) {
    const T* m0 = m + r * ldm;
    const T* m1 = m0 + ldm;
    const T* m2 = m1 + ldm;
    const T* m3 = m2 + ldm;
    V s0 = W::zero(), s1 = W::zero(), s2 = W::zero(), s3 = W::zero();
    for (i64 p = 0; p < kv; p += L) {
      const V xv = W::load(x + p);
      s0 = W::fma(W::load(m0 + p), xv, s0);
      s1 = W::fma(W::load(m1 + p), xv, s1);
      s2 = W::fma(W::load(m2 + p), xv, s2);
      s3 = W::fma(W::load(m3 + p), xv, s3);
    }
    if (kv < k) {
      const V xv = W::load(km, x + kv);
      s0 = W::fma(W::load(km, m0 + kv), xv, s0);
      s1 = W::fma(W::load(km, m1 + kv), xv, s1);
      s2 = W::fma(W::load(km, m2 + kv), xv, s2);
      s3 = W::fma(W::load(km, m3 + kv), xv, s3);
    }
    finish(r, W::sum(s0));
    finish(r + 1, W::sum(s1));
    finish(r + 2, W::sum(s2));
    finish(r + 3, W::sum(s3));
  }
  for (; r < rows; ++r) {
    const T* m0 = m + r * ldm;
    V s0 = W::zero(), s1 = W::zero();
    i64 p = 0;
    for (; p + 2 * L <= kv; p += 2 * L) {
      s0 = W::fma(W::load(m0 + p), W::load(x + p), s0);
      s1 = W::fma(W::load(m0 + p + L), W::load(x + p + L), s1);
    }
    for (; p < kv; p += L) s0 = W::fma(W::load(m0 + p), W::load(x + p), s0);
    if (kv < k) s1 = W::fma(W::load(km, m0 + kv), W::load(km, x + kv), s1);
    finish(r, W::sum(s0) + W::sum(s1));
  }
}

// y[0:rows] = alpha * sum_p x[p] * M[:, p] + beta * y, column p of M at m + p*ldm (contiguous rows).
template <class T>
void gemv_axpy_avx512(i64 rows, i64 k, const T* m, i64 ldm, const T* x, T alpha, T beta, T* y) {
  using W = Z<T>;
  using V = typename W::V;
  constexpr int L = W::L;
  constexpr int U = 8;  // vectors of y kept in registers per pass
  const V va = W::set1(alpha), vb = W::set1(beta);
  for (i64 r0 = 0; r0 < rows; r0 += U * L) {
    const i64 len = lesser(U * L, rows - r0);
    const int nv = static_cast<int>(ceil_div(len, L));
    const auto km = W::mask(static_cast<int>(len - (nv - 1) * L));
    V acc[U];
#pragma GCC unroll 8
    for (int v = 0; v < U; ++v) acc[v] = W::zero();
    const T* col = m + r0;
    if (nv == U && km == W::mask(L)) {
      for (i64 p = 0; p < k; ++p, col += ldm) {
        const V xv = W::set1(x[p]);
#pragma GCC unroll 8
        for (int v = 0; v < U; ++v) acc[v] = W::fma(W::load(col + v * L), xv, acc[v]);
      }
    } else {
      for (i64 p = 0; p < k; ++p, col += ldm) {
        const V xv = W::set1(x[p]);
        for (int v = 0; v < nv; ++v)
          acc[v] = W::fma(v == nv - 1 ? W::load(km, col + v * L) : W::load(col + v * L), xv, acc[v]);
      }
    }
    for (int v = 0; v < nv; ++v) {
      T* yy = y + r0 + v * L;
      const auto mk = v == nv - 1 ? km : W::mask(L);
      V r = W::mul(acc[v], va);
      if (beta != T(0)) r = W::fma(vb, W::load(mk, yy), r);
      W::store(mk, yy, r);
    }
  }
}


}  // namespace

template <>
const MicroKernels<float>& avx512_microkernels<float>() {
  static const MicroKernels<float> set = [] {
    auto s = make_set<float, Avx512Kernel, 4, 6>(CpuIsa::avx512, 16, 512, 288, 4092, true);
    fill_patches<float, Avx512Kernel, 1>(s, std::make_integer_sequence<int, 12>{});
    fill_patches<float, Avx512Kernel, 2>(s, std::make_integer_sequence<int, 12>{});
    fill_patches<float, Avx512Kernel, 3>(s, std::make_integer_sequence<int, 8>{});
    // Column steps of 1-, 2-, 3- and 4-channel images at strides 1, 2 and 4, on panels that stay in Zen 5's 48 KiB
    // L1: AlexNet's 11x11x3 window by 64 filters (93 KiB) ran 0.93 of oneDNN through these kernels, 1.00 through
    // the GEMM's tiles; 7x7x3 by 64 (38 KiB) and 11x11x3 by 32 (46 KiB) ran as fast as through them.
    s.blocking.patch_row_panel_bytes = 48 * 1024;
    fill_patch_rows<1, 28, 1, 2, 3, 4, 6, 8, 12>(s);
    fill_patch_rows<2, 14, 1, 2, 3, 4, 6, 8, 12>(s);
    fill_patch_rows<3, 9, 1, 2, 3, 4, 6, 8, 12>(s);
    fill_patch_rows<4, 6, 1, 2, 3, 4, 6, 8, 12>(s);
    s.pack_columns = &pack_columns_avx512<float>;
    s.pack_transposed = &pack_transposed_avx512<float>;
    s.gemv_dot = &gemv_dot_avx512<float>;
    s.gemv_axpy = &gemv_axpy_avx512<float>;
    return s;
  }();
  return set;
}

template <>
const MicroKernels<double>& avx512_microkernels<double>() {
  static const MicroKernels<double> set = [] {
    auto s = make_set<double, Avx512Kernel, 4, 6>(CpuIsa::avx512, 8, 256, 192, 4092, true);
    s.pack_columns = &pack_columns_avx512<double>;
    s.pack_transposed = &pack_transposed_avx512<double>;
    s.gemv_dot = &gemv_dot_avx512<double>;
    s.gemv_axpy = &gemv_axpy_avx512<double>;
    return s;
  }();
  return set;
}

}  // namespace portkern::kernel::cpu
#endif  // __x86_64__
