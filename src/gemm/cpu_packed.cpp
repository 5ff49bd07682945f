// cpu_packed: Goto/BLIS-style packed GEMM for x86-64 CPUs (see cpu_packed.hpp for the algorithm).
//
// Layout of this file
//   1. vector wrappers (AVX-512 and AVX2), each function compiled with its own target attribute
//   2. micro-kernels: MR x NR register tiles, exact edge variants, dispatch tables
//   3. per-ISA configuration (register and cache blocking), chosen once at run time
//   4. packing of op(A) and op(B) into panels, per-thread 64-byte aligned buffers
//   5. the serial blocked algorithm on one block of C
//   6. GEMV paths (m == 1 or n == 1) and the scaling-only path (k == 0 or alpha == 0)
//   7. thread partitioning (batch, m x n x k grid with k reduction) and run()
#include "cpu_packed.hpp"

#include <immintrin.h>
#include <omp.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <string>
#include <utility>

#include "portkern/checked.hpp"
#include "portkern/error.hpp"
#include "runtime/cpu/cpu_backend.hpp"

#define PK_AVX512 __attribute__((target("avx512f,avx512vl,avx512dq,avx512bw,avx2,fma")))
#define PK_AVX2 __attribute__((target("avx2,fma")))

namespace portkern::gemm_impl::cpu_packed {
namespace {

using i64 = std::int64_t;

constexpr int kMaxMv = 4;   // most vectors per micro-tile column (table bound)
constexpr int kMaxNr = 16;  // most columns per micro-tile (table bound)

i64 ceil_div(i64 a, i64 b) { return (a + b - 1) / b; }
i64 round_up(i64 a, i64 b) { return ceil_div(a, b) * b; }
std::size_t round_up(std::size_t a, std::size_t b) { return (a + b - 1) / b * b; }

// ---------------------------------------------------------------------------------------------
// 1. Vector wrappers. Z<T>: 512-bit with masks; Y<T>: 256-bit.
// ---------------------------------------------------------------------------------------------
template <class T>
struct Z;
template <>
struct Z<float> {
  using V = __m512;
  using M = __mmask16;
  static constexpr int L = 16;
  PK_AVX512 static V zero() { return _mm512_setzero_ps(); }
  PK_AVX512 static V set1(float x) { return _mm512_set1_ps(x); }
  PK_AVX512 static V load(const float* p) { return _mm512_loadu_ps(p); }
  PK_AVX512 static V load(M k, const float* p) { return _mm512_maskz_loadu_ps(k, p); }
  PK_AVX512 static void store(float* p, V v) { _mm512_storeu_ps(p, v); }
  PK_AVX512 static void store(M k, float* p, V v) { _mm512_mask_storeu_ps(p, k, v); }
  PK_AVX512 static V fma(V a, V b, V c) { return _mm512_fmadd_ps(a, b, c); }
  PK_AVX512 static V mul(V a, V b) { return _mm512_mul_ps(a, b); }
  PK_AVX512 static float sum(V v) { return _mm512_reduce_add_ps(v); }
  static M mask(int n) { return static_cast<M>((1u << n) - 1u); }  // n in 1..16
};
template <>
struct Z<double> {
  using V = __m512d;
  using M = __mmask8;
  static constexpr int L = 8;
  PK_AVX512 static V zero() { return _mm512_setzero_pd(); }
  PK_AVX512 static V set1(double x) { return _mm512_set1_pd(x); }
  PK_AVX512 static V load(const double* p) { return _mm512_loadu_pd(p); }
  PK_AVX512 static V load(M k, const double* p) { return _mm512_maskz_loadu_pd(k, p); }
  PK_AVX512 static void store(double* p, V v) { _mm512_storeu_pd(p, v); }
  PK_AVX512 static void store(M k, double* p, V v) { _mm512_mask_storeu_pd(p, k, v); }
  PK_AVX512 static V fma(V a, V b, V c) { return _mm512_fmadd_pd(a, b, c); }
  PK_AVX512 static V mul(V a, V b) { return _mm512_mul_pd(a, b); }
  PK_AVX512 static double sum(V v) { return _mm512_reduce_add_pd(v); }
  static M mask(int n) { return static_cast<M>((1u << n) - 1u); }  // n in 1..8
};

template <class T>
struct Y;
template <>
struct Y<float> {
  using V = __m256;
  static constexpr int L = 8;
  PK_AVX2 static V zero() { return _mm256_setzero_ps(); }
  PK_AVX2 static V set1(float x) { return _mm256_set1_ps(x); }
  PK_AVX2 static V load(const float* p) { return _mm256_loadu_ps(p); }
  PK_AVX2 static void store(float* p, V v) { _mm256_storeu_ps(p, v); }
  PK_AVX2 static V fma(V a, V b, V c) { return _mm256_fmadd_ps(a, b, c); }
  PK_AVX2 static V mul(V a, V b) { return _mm256_mul_ps(a, b); }
};
template <>
struct Y<double> {
  using V = __m256d;
  static constexpr int L = 4;
  PK_AVX2 static V zero() { return _mm256_setzero_pd(); }
  PK_AVX2 static V set1(double x) { return _mm256_set1_pd(x); }
  PK_AVX2 static V load(const double* p) { return _mm256_loadu_pd(p); }
  PK_AVX2 static void store(double* p, V v) { _mm256_storeu_pd(p, v); }
  PK_AVX2 static V fma(V a, V b, V c) { return _mm256_fmadd_pd(a, b, c); }
  PK_AVX2 static V mul(V a, V b) { return _mm256_mul_pd(a, b); }
};

// ---------------------------------------------------------------------------------------------
// 2. Micro-kernels.
//   C[0:mr, 0:NC] = alpha * sum_p A(:, p) B(p, :) + beta * C   (beta == 0: C is not read)
//   A: MV vectors per k step at a + p*as (packed panel: as = panel width; in place: as = lda).
//      The last vector holds `mlast` valid rows (1..L); its other lanes are never stored.
//   B: BCOL ? B(p, j) = b[p + j*bs] (column-major, in place) : B(p, j) = b[p*bs + j] (packed or B^T).
// ---------------------------------------------------------------------------------------------
template <class T>
using KernFn = void (*)(i64 kc, const T* a, i64 as, const T* b, i64 bs, T* c, i64 ldc, T alpha, T beta,
                        int mlast);

template <class T, int MV, int NC, bool BCOL>
PK_AVX512 void kernel_avx512(i64 kc, const T* __restrict a, i64 as, const T* __restrict b, i64 bs,
                             T* __restrict c, i64 ldc, T alpha, T beta, int mlast) {
  using W = Z<T>;
  using V = typename W::V;
  constexpr int L = W::L;
  const auto km = W::mask(mlast);
  V acc[MV][NC];
#pragma GCC unroll 64
  for (int j = 0; j < NC; ++j)
#pragma GCC unroll 8
    for (int v = 0; v < MV; ++v) acc[v][j] = W::zero();

  // The C tile is needed only at the end: start bringing it in now.
#pragma GCC unroll 64
  for (int j = 0; j < NC; ++j) {
#pragma GCC unroll 8
    for (int v = 0; v < MV; ++v) _mm_prefetch(reinterpret_cast<const char*>(c + j * ldc + v * L), _MM_HINT_T0);
    _mm_prefetch(reinterpret_cast<const char*>(c + j * ldc + MV * L - 1), _MM_HINT_T0);
  }

#pragma GCC unroll 4
  for (i64 p = 0; p < kc; ++p) {
    V av[MV];
#pragma GCC unroll 8
    for (int v = 0; v < MV - 1; ++v) av[v] = W::load(a + v * L);
    av[MV - 1] = W::load(km, a + (MV - 1) * L);
#pragma GCC unroll 64
    for (int j = 0; j < NC; ++j) {
      const V bv = W::set1(BCOL ? b[j * bs] : b[j]);
#pragma GCC unroll 8
      for (int v = 0; v < MV; ++v) acc[v][j] = W::fma(av[v], bv, acc[v][j]);
    }
    a += as;
    b += BCOL ? 1 : bs;
  }

  const V va = W::set1(alpha);
  if (beta == T(0)) {
#pragma GCC unroll 64
    for (int j = 0; j < NC; ++j) {
      T* cj = c + j * ldc;
#pragma GCC unroll 8
      for (int v = 0; v < MV - 1; ++v) W::store(cj + v * L, W::mul(acc[v][j], va));
      W::store(km, cj + (MV - 1) * L, W::mul(acc[MV - 1][j], va));
    }
  } else {
    const V vb = W::set1(beta);
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

// AVX2 + FMA fallback. A is always packed and zero-padded here, so full vectors may be loaded;
// the partial last vector is stored through a small buffer.
template <class T, int MV, int NC, bool BCOL>
PK_AVX2 void kernel_avx2(i64 kc, const T* __restrict a, i64 as, const T* __restrict b, i64 bs,
                         T* __restrict c, i64 ldc, T alpha, T beta, int mlast) {
  using W = Y<T>;
  using V = typename W::V;
  constexpr int L = W::L;
  V acc[MV][NC];
#pragma GCC unroll 64
  for (int j = 0; j < NC; ++j)
#pragma GCC unroll 8
    for (int v = 0; v < MV; ++v) acc[v][j] = W::zero();

#pragma GCC unroll 4
  for (i64 p = 0; p < kc; ++p) {
    V av[MV];
#pragma GCC unroll 8
    for (int v = 0; v < MV; ++v) av[v] = W::load(a + v * L);
#pragma GCC unroll 64
    for (int j = 0; j < NC; ++j) {
      const V bv = W::set1(BCOL ? b[j * bs] : b[j]);
#pragma GCC unroll 8
      for (int v = 0; v < MV; ++v) acc[v][j] = W::fma(av[v], bv, acc[v][j]);
    }
    a += as;
    b += BCOL ? 1 : bs;
  }

  const V va = W::set1(alpha);
  const V vb = W::set1(beta);
#pragma GCC unroll 64
  for (int j = 0; j < NC; ++j) {
    T* cj = c + j * ldc;
#pragma GCC unroll 8
    for (int v = 0; v < MV - 1; ++v) {
      const V r = W::mul(acc[v][j], va);
      W::store(cj + v * L, beta == T(0) ? r : W::fma(vb, W::load(cj + v * L), r));
    }
    T* cl = cj + (MV - 1) * L;
    const V r = W::mul(acc[MV - 1][j], va);
    if (mlast == L) {
      W::store(cl, beta == T(0) ? r : W::fma(vb, W::load(cl), r));
    } else {
      alignas(32) T tmp[L];
      W::store(tmp, r);
      for (int i = 0; i < mlast; ++i) cl[i] = beta == T(0) ? tmp[i] : tmp[i] + beta * cl[i];
    }
  }
}

// Dispatch tables: table[bcol][mv - 1][nc - 1] for mv <= MV, nc <= NR.
template <class T>
using KernTable = std::array<std::array<std::array<KernFn<T>, kMaxNr>, kMaxMv>, 2>;

template <class T, bool Avx512, int MV, bool BCOL, int... N>
void fill_row(std::array<KernFn<T>, kMaxNr>& row, std::integer_sequence<int, N...>) {
  if constexpr (Avx512)
    ((row[N] = &kernel_avx512<T, MV, N + 1, BCOL>), ...);
  else
    ((row[N] = &kernel_avx2<T, MV, N + 1, BCOL>), ...);
}

template <class T, bool Avx512, int NR, int... MVs>
void fill_table(KernTable<T>& t, std::integer_sequence<int, MVs...>) {
  constexpr auto cols = std::make_integer_sequence<int, NR>{};
  ((fill_row<T, Avx512, MVs + 1, false>(t[0][MVs], cols)), ...);
  ((fill_row<T, Avx512, MVs + 1, true>(t[1][MVs], cols)), ...);
}

// ---------------------------------------------------------------------------------------------
// 3. Per-ISA configuration.
// ---------------------------------------------------------------------------------------------
template <class T>
struct Config {
  int lanes = 0;          // elements per vector
  int mv = 0;             // vectors per micro-tile column: MR = mv * lanes
  int nr = 0;             // micro-tile columns
  i64 kc = 0, mc = 0, nc = 0;
  i64 l2_bytes = 0;         // budget for the packed A block (MC x KC)
  bool in_place_a = false;  // kernels mask the last vector of A, so unpacked A can be read
  KernTable<T> kern{};
  i64 mr() const { return i64(mv) * lanes; }
};

template <class T, int MV, int NR>
Config<T> make_avx512(i64 kc, i64 mc, i64 nc) {
  static_assert(MV <= kMaxMv && NR <= kMaxNr);
  Config<T> c;
  c.lanes = Z<T>::L;
  c.mv = MV;
  c.nr = NR;
  c.kc = kc;
  c.mc = mc;
  c.nc = nc;
  c.l2_bytes = mc * kc * i64(sizeof(T));
  c.in_place_a = true;
  fill_table<T, true, NR>(c.kern, std::make_integer_sequence<int, MV>{});
  return c;
}

template <class T, int MV, int NR>
Config<T> make_avx2(i64 kc, i64 mc, i64 nc) {
  static_assert(MV <= kMaxMv && NR <= kMaxNr);
  Config<T> c;
  c.lanes = Y<T>::L;
  c.mv = MV;
  c.nr = NR;
  c.kc = kc;
  c.mc = mc;
  c.nc = nc;
  c.l2_bytes = mc * kc * i64(sizeof(T));
  c.in_place_a = false;
  fill_table<T, false, NR>(c.kern, std::make_integer_sequence<int, MV>{});
  return c;
}

// PORTKERN_CPU_PACKED_NO_AVX512 forces the AVX2 path (to test it on AVX-512 machines).
bool has_avx512() {
#ifdef PORTKERN_CPU_PACKED_NO_AVX512
  return false;
#endif
  static const bool yes = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
                          __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512bw");
  return yes;
}

template <class T>
const Config<T>& config();

// AVX-512: 4 zmm x 6 columns (24 accumulators, 4 A loads + 6 broadcasts per 24 FMAs) measured best on
// Zen 4 against 2x12, 3x8, 2x14 and 1x16. KC x NR of B stays in L1; MC x KC of A takes about half of L2.
template <>
const Config<float>& config<float>() {
  static const Config<float> c =
      has_avx512() ? make_avx512<float, 4, 6>(512, 288, 4092) : make_avx2<float, 2, 6>(384, 192, 4092);
  return c;
}
template <>
const Config<double>& config<double>() {
  static const Config<double> c =
      has_avx512() ? make_avx512<double, 4, 6>(256, 192, 4092) : make_avx2<double, 2, 6>(256, 96, 4092);
  return c;
}

// ---------------------------------------------------------------------------------------------
// 4. Packing. Per-thread buffers, 64-byte aligned, grown on demand and kept for the thread's life: each OS
// thread has its own (threads of concurrent calls never share one), and their size is bounded by the
// blocking (at most (MC + MR) x KC of A and NC x KC of B). Memory whose size follows the problem (the
// k-split's partial products, a GEMV's gathered vector) is allocated per call instead.
// ---------------------------------------------------------------------------------------------
class Buffer {
 public:
  Buffer() = default;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  ~Buffer() { std::free(p_); }
  template <class T>
  T* get(i64 count) {
    const std::size_t bytes = round_up(checked_bytes(count, sizeof(T), "portkern::gemm", "cpu_packed scratch") + 64, 64);
    if (bytes > cap_) {
      std::free(p_);
      p_ = detail::cpu::allocate_pages(bytes);
      cap_ = p_ ? bytes : 0;
      if (!p_)
        fail("portkern::gemm", "cannot allocate " + std::to_string(bytes) + " bytes on cpu for cpu_packed scratch");
    }
    return static_cast<T*>(p_);
  }

 private:
  void* p_ = nullptr;
  std::size_t cap_ = 0;
};

thread_local Buffer tl_pack_a, tl_pack_b;

// An exception thrown inside an OpenMP region (an allocation that fails) must not leave it: each thread
// runs its work through run(), the first exception is kept, and rethrow() raises it after the region.
class RegionErrors {
 public:
  template <class F>
  void run(F&& f) noexcept {
    try {
      f();
    } catch (...) {
      std::lock_guard lock(mutex_);
      if (!first_) first_ = std::current_exception();
    }
  }
  void rethrow() const {
    if (first_) std::rethrow_exception(first_);
  }

 private:
  std::mutex mutex_;
  std::exception_ptr first_;
};

// One problem's operands (column-major storage, transposes as flags).
template <class T>
struct Operands {
  bool ta, tb;
  const T* a;
  i64 lda;
  const T* b;
  i64 ldb;
  T alpha;
};

// Transposing copy, the common core of packing A^T and B:
//   dst[p*wo + j] = j < wv ? src[j*ld + p] : 0      for p < kc, j < wo (wo >= wv).
// AVX-512: 16 x 16 (float) or 8 x 8 (double) blocks transposed in registers, masked at the edges.
PK_AVX512 inline void transpose16(__m512 r[16]) {
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
PK_AVX512 inline void transpose8(__m512d r[8]) {
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
PK_AVX512 void pack_transposed_avx512(const T* src, i64 ld, i64 wv, i64 wo, i64 kc, T* dst) {
  using W = Z<T>;
  using V = typename W::V;
  constexpr int L = W::L;
  for (i64 j0 = 0; j0 < wo; j0 += L) {
    const int jv = static_cast<int>(std::clamp<i64>(wv - j0, 0, L));  // valid source rows in block
    const auto sm = W::mask(static_cast<int>(std::min<i64>(L, wo - j0)));
    for (i64 p0 = 0; p0 < kc; p0 += L) {
      const int pw = static_cast<int>(std::min<i64>(L, kc - p0));
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
template <class T>
void pack_transposed_generic(const T* src, i64 ld, i64 wv, i64 wo, i64 kc, T* dst) {
  i64 p = 0;
  for (; p + 8 <= kc; p += 8)
    for (i64 j = 0; j < wv; ++j)
      for (int q = 0; q < 8; ++q) dst[(p + q) * wo + j] = src[j * ld + p + q];
  for (; p < kc; ++p)
    for (i64 j = 0; j < wv; ++j) dst[p * wo + j] = src[j * ld + p];
  if (wo > wv)
    for (p = 0; p < kc; ++p)
      for (i64 j = wv; j < wo; ++j) dst[p * wo + j] = T(0);
}
template <class T>
void pack_transposed(const T* src, i64 ld, i64 wv, i64 wo, i64 kc, T* dst) {
  if (has_avx512())
    pack_transposed_avx512(src, ld, wv, wo, kc, dst);
  else
    pack_transposed_generic(src, ld, wv, wo, kc, dst);
}

// Prefetches the cache lines of [p, p + count) into L2.
template <class T>
inline void prefetch_range(const T* p, i64 count) {
  const char* b = reinterpret_cast<const char*>(reinterpret_cast<std::uintptr_t>(p) & ~std::uintptr_t(63));
  const char* e = reinterpret_cast<const char*>(p + count);
  for (; b < e; b += 64) __builtin_prefetch(b, 0, 2);  // into L2
}

// Column sweep, the core of packing A: column p of src (contiguous, `rows` elements) is scattered
// into panels of mr rows: panel r (width w = its rows rounded up to the vector length, zero-padded)
// starts at dst + r*mr*kc and holds (i, p) at [p*w + i]. Whole columns are read in order, which
// keeps the reads sequential; a block larger than one panel is prefetched a few columns ahead.
template <class T>
PK_AVX512 void pack_columns_avx512(const T* src, i64 ld, i64 rows, i64 kc, i64 mr, T* dst) {
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
template <class T>
void pack_columns_generic(const T* src, i64 ld, i64 rows, i64 kc, i64 mr, T* dst) {
  const i64 full = rows / mr * mr, tail = rows - full;
  const i64 lanes = 32 / i64(sizeof(T));
  const i64 wt = round_up(tail, lanes);
  for (i64 p = 0; p < kc; ++p) {
    const T* s = src + p * ld;
    for (i64 ir = 0; ir < full; ir += mr) {
      T* d = dst + ir * kc + p * mr;
      for (i64 i = 0; i < mr; ++i) d[i] = s[ir + i];
    }
    if (tail) {
      T* d = dst + full * kc + p * wt;
      for (i64 i = 0; i < tail; ++i) d[i] = s[full + i];
      for (i64 i = tail; i < wt; ++i) d[i] = T(0);
    }
  }
}

// op(A)[i0 : i0+mc, p0 : p0+kc] -> panels of MR rows; panel r (width w = rows rounded up to lanes,
// zero-padded) starts at dst + r*MR*kc and stores element (i, p) at [p*w + i].
template <class T>
void pack_a(const Config<T>& cfg, const Operands<T>& op, i64 i0, i64 mc, i64 p0, i64 kc, T* dst) {
  const i64 mr = cfg.mr();
  if (!op.ta) {
    if (has_avx512())
      pack_columns_avx512(op.a + i0 + p0 * op.lda, op.lda, mc, kc, mr, dst);
    else
      pack_columns_generic(op.a + i0 + p0 * op.lda, op.lda, mc, kc, mr, dst);
    return;
  }
  for (i64 ir = 0; ir < mc; ir += mr) {  // row i of op(A) is contiguous in p
    const i64 rows = std::min(mr, mc - ir);
    const i64 w = round_up(rows, cfg.lanes);
    pack_transposed(op.a + p0 + (i0 + ir) * op.lda, op.lda, rows, w, kc, dst + ir * kc);
  }
}

// op(B)[p0 : p0+kc, j0 : j0+nc] -> panels of NR columns; panel r (width w <= NR) starts at
// dst + r*NR*kc and stores element (p, j) at [p*w + j].
template <class T>
void pack_b(const Config<T>& cfg, const Operands<T>& op, i64 p0, i64 kc, i64 j0, i64 nc, T* dst) {
  const i64 nr = cfg.nr;
  for (i64 jr = 0; jr < nc; jr += nr) {
    const i64 w = std::min(nr, nc - jr);
    T* d = dst + jr * kc;
    if (op.tb) {  // row p of op(B) is contiguous in j: plain copies
      const T* s = op.b + (j0 + jr) + p0 * op.ldb;
      for (i64 p = 0; p < kc; ++p, s += op.ldb, d += w)
        for (i64 j = 0; j < w; ++j) d[j] = s[j];
    } else {  // column j of B is contiguous in p
      pack_transposed(op.b + p0 + (j0 + jr) * op.ldb, op.ldb, w, w, kc, d);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// 5. Serial blocked GEMM on one block: C[0:m, 0:n] = alpha * op(A)[i0.., p0..] op(B)[p0.., j0..]
//    + beta * C, where c points at the block's first element.
// ---------------------------------------------------------------------------------------------
template <class T>
void serial_gemm(const Config<T>& cfg, const Operands<T>& op, i64 i0, i64 m, i64 j0, i64 n, i64 p0, i64 k,
                 T beta, T* c, i64 ldc) {
  const i64 mr = cfg.mr(), nr = cfg.nr, L = cfg.lanes;
  // B is read in place when it is not transposed and few row panels reuse it (broadcasts from NR
  // column streams are cheaper than the transposing pack), or when a single row panel uses it.
  const bool direct_b = (!op.tb && m <= 16 * mr) || m <= mr;
  // A is read in place when it is not transposed and either one row panel covers it (packing would
  // only copy it) or few column tiles reuse it.
  const bool direct_a = cfg.in_place_a && !op.ta && (m <= mr || n <= 2 * nr);
  // k is cut into equal blocks of at most ~1.25 KC (B micro-panel in L1). With B in place, a block
  // only has to keep the A panel in L2. MC then fills the L2 budget of the A block.
  const i64 kc_max =
      direct_b ? std::max(cfg.kc, cfg.l2_bytes / (round_up(std::min(m, cfg.mc), L) * i64(sizeof(T)))) : cfg.kc;
  const i64 KC = round_up(ceil_div(k, ceil_div(k, kc_max + kc_max / 4)), 8);
  // MC: whole panels, blocks of equal size; the last block takes the remainder of fewer than MR rows.
  const i64 mc_max = std::max(mr, cfg.l2_bytes / (KC * i64(sizeof(T))) / mr * mr);
  const i64 MC = std::max<i64>(1, ceil_div(m / mr, ceil_div(m, mc_max))) * mr;
  const i64 NC = cfg.nc;

  T* buf_a = direct_a ? nullptr : tl_pack_a.get<T>(std::min(round_up(m, mr), MC + mr) * std::min(KC, k));
  T* buf_b = direct_b ? nullptr : tl_pack_b.get<T>(std::min(round_up(n, nr), round_up(NC, nr)) * std::min(KC, k));

  for (i64 jc = 0; jc < n; jc += NC) {
    const i64 nc = std::min(NC, n - jc);
    for (i64 pc = 0; pc < k; pc += KC) {
      const i64 kc = std::min(KC, k - pc);
      const T bet = pc == 0 ? beta : T(1);
      if (!direct_b) pack_b(cfg, op, p0 + pc, kc, j0 + jc, nc, buf_b);
      for (i64 ic = 0, mc = 0; ic < m; ic += mc) {
        mc = m - ic < MC + mr ? m - ic : MC;
        if (!direct_a) pack_a(cfg, op, i0 + ic, mc, p0 + pc, kc, buf_a);
        for (i64 jr = 0; jr < nc; jr += nr) {
          // B micro-panel (kc x w): packed, in place column-major, or in place as rows of B^T.
          const int w = static_cast<int>(std::min(nr, nc - jr));
          const T* bp;
          i64 bs;
          int bcol = 0;
          if (!direct_b) {
            bp = buf_b + jr * kc;
            bs = w;
          } else if (!op.tb) {
            bp = op.b + (p0 + pc) + (j0 + jc + jr) * op.ldb;
            bs = op.ldb;
            bcol = 1;
          } else {
            bp = op.b + (j0 + jc + jr) + (p0 + pc) * op.ldb;
            bs = op.ldb;
          }
          for (i64 ir = 0; ir < mc; ir += mr) {
            // A micro-panel (rows x kc): packed (zero-padded to whole vectors) or in place.
            const i64 rows = std::min(mr, mc - ir);
            const int mv = static_cast<int>(ceil_div(rows, L));
            const int mlast = static_cast<int>(rows - (mv - 1) * L);
            const T* ap;
            i64 as;
            if (direct_a) {
              ap = op.a + (i0 + ic + ir) + (p0 + pc) * op.lda;
              as = op.lda;
            } else {
              ap = buf_a + ir * kc;
              as = mv * L;
            }
            cfg.kern[bcol][mv - 1][w - 1](kc, ap, as, bp, bs, c + (ic + ir) + (jc + jr) * ldc, ldc, op.alpha,
                                          bet, mlast);
          }
        }
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// 6. GEMV paths and scaling.
// ---------------------------------------------------------------------------------------------
// y[r*ys] = alpha * dot(M + r*ldm, x) + beta * y[r*ys] for r < rows; rows of M and x have length k.
template <class T>
PK_AVX512 void gemv_dot_avx512(i64 rows, i64 k, const T* m, i64 ldm, const T* x, T alpha, T beta, T* y,
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
PK_AVX512 void gemv_axpy_avx512(i64 rows, i64 k, const T* m, i64 ldm, const T* x, T alpha, T beta, T* y) {
  using W = Z<T>;
  using V = typename W::V;
  constexpr int L = W::L;
  constexpr int U = 8;  // vectors of y kept in registers per pass
  const V va = W::set1(alpha), vb = W::set1(beta);
  for (i64 r0 = 0; r0 < rows; r0 += U * L) {
    const i64 len = std::min<i64>(U * L, rows - r0);
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

// Portable versions of the two GEMV forms (AVX2 machines; the compiler vectorises them).
template <class T>
void gemv_dot_generic(i64 rows, i64 k, const T* m, i64 ldm, const T* x, T alpha, T beta, T* y, i64 ys) {
  for (i64 r = 0; r < rows; ++r) {
    const T* mr = m + r * ldm;
    T s[8] = {};
    i64 p = 0;
    for (; p + 8 <= k; p += 8)
      for (int q = 0; q < 8; ++q) s[q] += mr[p + q] * x[p + q];
    for (; p < k; ++p) s[0] += mr[p] * x[p];
    const T t = ((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) + (s[6] + s[7]));
    T* yy = y + r * ys;
    *yy = beta == T(0) ? alpha * t : alpha * t + beta * *yy;
  }
}
template <class T>
void gemv_axpy_generic(i64 rows, i64 k, const T* m, i64 ldm, const T* x, T alpha, T beta, T* y) {
  constexpr i64 B = 256;
  for (i64 r0 = 0; r0 < rows; r0 += B) {
    const i64 len = std::min(B, rows - r0);
    T acc[B] = {};
    for (i64 p = 0; p < k; ++p) {
      const T* col = m + r0 + p * ldm;
      const T xp = x[p];
      for (i64 i = 0; i < len; ++i) acc[i] += xp * col[i];
    }
    for (i64 i = 0; i < len; ++i) y[r0 + i] = beta == T(0) ? alpha * acc[i] : alpha * acc[i] + beta * y[r0 + i];
  }
}

template <class T>
void gemv_dot(i64 rows, i64 k, const T* m, i64 ldm, const T* x, T alpha, T beta, T* y, i64 ys) {
  if (has_avx512())
    gemv_dot_avx512(rows, k, m, ldm, x, alpha, beta, y, ys);
  else
    gemv_dot_generic(rows, k, m, ldm, x, alpha, beta, y, ys);
}
template <class T>
void gemv_axpy(i64 rows, i64 k, const T* m, i64 ldm, const T* x, T alpha, T beta, T* y) {
  if (has_avx512())
    gemv_axpy_avx512(rows, k, m, ldm, x, alpha, beta, y);
  else
    gemv_axpy_generic(rows, k, m, ldm, x, alpha, beta, y);
}

// x[0:k] = src[p*inc] gathered into the thread's contiguous buffer `buf` (returned as is when inc == 1).
template <class T>
const T* contiguous(const T* src, i64 k, i64 inc, Buffer& buf) {
  if (inc == 1) return src;
  T* x = buf.get<T>(k);
  for (i64 p = 0; p < k; ++p) x[p] = src[p * inc];
  return x;
}

// m == 1 or n == 1: one row or one column of C, split over `nt` threads by output range. Each thread's
// gathered vector and strided-row buffer are its own for this call.
template <class T>
void gemv(const Operands<T>& op, i64 m, i64 n, i64 k, T beta, T* c, i64 ldc, int nt) {
  const T alpha = op.alpha;
  RegionErrors errors;
  if (n == 1) {  // C[:, 0] = alpha * op(A) x + beta C, x = op(B)[:, 0]
#pragma omp parallel num_threads(nt) if (nt > 1)
    errors.run([&] {
      const int t = omp_get_thread_num(), T_ = omp_get_num_threads();
      const i64 chunk = round_up(ceil_div(m, T_), i64(64));
      const i64 r0 = std::min(m, t * chunk), r1 = std::min(m, r0 + chunk);
      if (r1 <= r0) return;
      Buffer gathered;
      const T* x = contiguous(op.b, k, op.tb ? op.ldb : 1, gathered);
      if (!op.ta)
        gemv_axpy(r1 - r0, k, op.a + r0, op.lda, x, alpha, beta, c + r0);
      else
        gemv_dot(r1 - r0, k, op.a + r0 * op.lda, op.lda, x, alpha, beta, c + r0, i64(1));
    });
  } else {  // m == 1: C[0, :] = alpha * x^T op(B) + beta C, x = op(A)[0, :]
#pragma omp parallel num_threads(nt) if (nt > 1)
    errors.run([&] {
      const int t = omp_get_thread_num(), T_ = omp_get_num_threads();
      const i64 chunk = round_up(ceil_div(n, T_), i64(64));
      const i64 j0 = std::min(n, t * chunk), j1 = std::min(n, j0 + chunk);
      if (j1 <= j0) return;
      Buffer gathered, row;
      const T* x = contiguous(op.a, k, op.ta ? 1 : op.lda, gathered);
      if (!op.tb) {
        gemv_dot(j1 - j0, k, op.b + j0 * op.ldb, op.ldb, x, alpha, beta, c + j0 * ldc, ldc);
      } else if (ldc == 1) {
        gemv_axpy(j1 - j0, k, op.b + j0, op.ldb, x, alpha, beta, c + j0);
      } else {  // strided C row: compute into a contiguous buffer, then merge
        T* y = row.get<T>(j1 - j0);
        gemv_axpy(j1 - j0, k, op.b + j0, op.ldb, x, T(1), T(0), y);
        for (i64 j = j0; j < j1; ++j) {
          T* cj = c + j * ldc;
          *cj = beta == T(0) ? alpha * y[j - j0] : alpha * y[j - j0] + beta * *cj;
        }
      }
    });
  }
  errors.rethrow();
}

// C = beta * C (beta == 0: zeros, C not read).
template <class T>
void scale(i64 m, i64 n, T beta, T* c, i64 ldc) {
  for (i64 j = 0; j < n; ++j) {
    T* cj = c + j * ldc;
    if (beta == T(0))
      for (i64 i = 0; i < m; ++i) cj[i] = T(0);
    else if (beta != T(1))
      for (i64 i = 0; i < m; ++i) cj[i] *= beta;
  }
}

// ---------------------------------------------------------------------------------------------
// 7. Threads.
// ---------------------------------------------------------------------------------------------
struct Grid {
  int tm = 1, tn = 1, tk = 1;
};

// Chooses tm x tn x tk = nt minimising a rough per-thread time: FMA vector operations of the
// largest block (tiles rounded up), plus packing of its A and B blocks, plus the k reduction.
template <class T>
Grid choose_grid(const Config<T>& cfg, i64 m, i64 n, i64 k, int nt) {
  const i64 mr = cfg.mr(), nr = cfg.nr, L = cfg.lanes;
  const i64 mt = ceil_div(m, mr), ntl = ceil_div(n, nr);
  Grid best;
  double best_cost = -1;
  for (int tk = 1; tk <= nt; ++tk) {
    if (nt % tk) continue;
    for (int tm = 1; tm <= nt / tk; ++tm) {
      if ((nt / tk) % tm) continue;
      const int tn = nt / tk / tm;
      if (tm > mt || tn > ntl || tk > ceil_div(k, 64)) continue;
      const i64 mb = std::min(m, ceil_div(mt, tm) * mr);
      const i64 nb = std::min(n, ceil_div(ntl, tn) * nr);
      const i64 kb = ceil_div(k, tk);
      const double compute = double(round_up(mb, L)) * double(nb) * double(kb) / double(L);
      const double pack = 0.5 * double(kb) * (double(mb) * double(ceil_div(nb, cfg.nc)) + (mb > mr ? double(nb) : 0.0));
      const double reduce = tk > 1 ? 2.0 * double(m) * double(n) * tk / nt : 0.0;
      const double cost = compute + pack + reduce;
      if (best_cost < 0 || cost < best_cost) {
        best_cost = cost;
        best = Grid{tm, tn, tk};
      }
    }
  }
  return best;
}

// Block b of `parts` over `tiles` tiles of size `tile` covering `len` elements: [begin, end).
std::pair<i64, i64> block_range(i64 len, i64 tile, int parts, int b) {
  const i64 tiles = ceil_div(len, tile);
  const i64 per = tiles / parts, extra = tiles % parts;
  const i64 t0 = b * per + std::min<i64>(b, extra);
  const i64 t1 = t0 + per + (b < extra ? 1 : 0);
  return {std::min(len, t0 * tile), std::min(len, t1 * tile)};
}

// One problem with nt threads (nt == 1: the calling thread only).
template <class T>
void solve(const Operands<T>& op, i64 m, i64 n, i64 k, T beta, T* c, i64 ldc, int nt) {
  if (k == 0 || op.alpha == T(0)) {
    scale(m, n, beta, c, ldc);
    return;
  }
  // Small problems do not pay for a parallel region.
  if (double(m) * double(n) * double(k) < 32768.0) nt = 1;
  if (m == 1 || n == 1) {
    gemv(op, m, n, k, beta, c, ldc, nt);
    return;
  }
  const Config<T>& cfg = config<T>();
  if (nt == 1) {
    serial_gemm(cfg, op, 0, m, 0, n, 0, k, beta, c, ldc);
    return;
  }
  const Grid g = choose_grid(cfg, m, n, k, nt);
  const int tasks = g.tm * g.tn * g.tk;
  // Partial products of k blocks 1..tk-1, each a full m x n matrix (ld = m), this call's own.
  Buffer reduction;
  T* partial = g.tk > 1 ? reduction.get<T>(checked_product({g.tk - 1, m, n}, "portkern::gemm", "k-split partial products"))
                         : nullptr;
  RegionErrors errors;
#pragma omp parallel for schedule(static, 1) num_threads(nt)
  for (int t = 0; t < tasks; ++t) errors.run([&] {
    const int im = t % g.tm, in = (t / g.tm) % g.tn, ik = t / (g.tm * g.tn);
    const auto [i0, i1] = block_range(m, cfg.mr(), g.tm, im);
    const auto [j0, j1] = block_range(n, cfg.nr, g.tn, in);
    const auto [p0, p1] = block_range(k, 16, g.tk, ik);
    if (i1 <= i0 || j1 <= j0) return;
    if (ik == 0)
      serial_gemm(cfg, op, i0, i1 - i0, j0, j1 - j0, p0, p1 - p0, beta, c + i0 + j0 * ldc, ldc);
    else if (p1 > p0)
      serial_gemm(cfg, op, i0, i1 - i0, j0, j1 - j0, p0, p1 - p0, T(0), partial + (ik - 1) * m * n + i0 + j0 * m, m);
    else
      scale(i1 - i0, j1 - j0, T(0), partial + (ik - 1) * m * n + i0 + j0 * m, m);
  });
  errors.rethrow();
  if (g.tk > 1) {
#pragma omp parallel for schedule(static) num_threads(nt)
    for (i64 j = 0; j < n; ++j) {
      T* cj = c + j * ldc;
      for (int q = 0; q < g.tk - 1; ++q) {
        const T* pj = partial + q * m * n + j * m;
        for (i64 i = 0; i < m; ++i) cj[i] += pj[i];
      }
    }
  }
}

}  // namespace

template <class T>
void run(bool trans_a, bool trans_b, std::int64_t m, std::int64_t n, std::int64_t k, T alpha, const T* a,
         std::int64_t lda, std::int64_t stride_a, const T* b, std::int64_t ldb, std::int64_t stride_b, T beta,
         T* c, std::int64_t ldc, std::int64_t stride_c, std::int64_t batch, int threads) {
  const int nt = std::max(1, threads);
  auto problem = [&](i64 i, int tcount) {
    const Operands<T> op{trans_a, trans_b, a + i * stride_a, lda, b + i * stride_b, ldb, alpha};
    solve(op, m, n, k, beta, c + i * stride_c, ldc, tcount);
  };
  // Whole problems per thread when the batch divides evenly or is large; the remainder is split.
  i64 whole = 0;
  if (nt > 1 && batch >= nt) whole = (batch % nt == 0 || batch >= 4 * nt) ? batch : batch / nt * nt;
  if (whole > 0) {
    RegionErrors errors;
#pragma omp parallel for schedule(static) num_threads(nt)
    for (i64 i = 0; i < whole; ++i) errors.run([&] { problem(i, 1); });
    errors.rethrow();
  }
  for (i64 i = whole; i < batch; ++i) problem(i, nt);
}

template void run<float>(bool, bool, std::int64_t, std::int64_t, std::int64_t, float, const float*, std::int64_t,
                         std::int64_t, const float*, std::int64_t, std::int64_t, float, float*, std::int64_t,
                         std::int64_t, std::int64_t, int);
template void run<double>(bool, bool, std::int64_t, std::int64_t, std::int64_t, double, const double*,
                          std::int64_t, std::int64_t, const double*, std::int64_t, std::int64_t, double, double*,
                          std::int64_t, std::int64_t, std::int64_t, int);

}  // namespace portkern::gemm_impl::cpu_packed
