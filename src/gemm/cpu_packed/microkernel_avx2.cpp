// The AVX2 + FMA micro-kernels of the packed GEMM (portkern/kernel/cpu/microkernel.hpp). Compiled for
// x86-64-v3 (AVX2, FMA; cmake/cpu_simd.cmake); run where the device class cpu-avx2 is chosen (forced with
// PORTKERN_CPU_CLASS=cpu-avx2 on an AVX-512 machine, which is how its tests run there). Packing and GEMV are
// the frame's portable C++.
//
// Register tile: 2 ymm x 6 columns, 12 accumulators + 2 A vectors + 1 broadcast of the 16 ymm registers:
// float MR x NR = 16 x 6, double 8 x 6. Cache blocks derived, not tuned on an AVX2-only machine (none here):
// float KC 384 (KC x NR of B = 9 KiB of a 32 KiB L1), MC 192 (MC x KC of A = 288 KiB, about half of the
// 512 KiB L2 of Zen 2/3 and Haswell-to-Skylake's 256 KiB-1 MiB); double KC 256, MC 96 (192 KiB).
// A is always packed and zero-padded (reads_unpacked_a false): full vectors are loaded; the partial last
// vector of C is stored through a small buffer.
#if defined(__x86_64__)
#if !defined(__AVX2__) || !defined(__FMA__)
#error "microkernel_avx2.cpp needs its own target flags (-march=x86-64-v3, cmake/cpu_simd.cmake)"
#endif

#include <immintrin.h>

#include <cstdint>

#include "gemm/cpu_packed/kernel_set.hpp"

namespace portkern::kernel::cpu {
namespace {

using i64 = std::int64_t;

// Vector wrappers: 256-bit vectors.
template <class T>
struct Y;
template <>
struct Y<float> {
  using V = __m256;
  static constexpr int L = 8;
  static V zero() { return _mm256_setzero_ps(); }
  static V set1(float x) { return _mm256_set1_ps(x); }
  static V load(const float* p) { return _mm256_loadu_ps(p); }
  static void store(float* p, V v) { _mm256_storeu_ps(p, v); }
  static V fma(V a, V b, V c) { return _mm256_fmadd_ps(a, b, c); }
  static V mul(V a, V b) { return _mm256_mul_ps(a, b); }
};
template <>
struct Y<double> {
  using V = __m256d;
  static constexpr int L = 4;
  static V zero() { return _mm256_setzero_pd(); }
  static V set1(double x) { return _mm256_set1_pd(x); }
  static V load(const double* p) { return _mm256_loadu_pd(p); }
  static void store(double* p, V v) { _mm256_storeu_pd(p, v); }
  static V fma(V a, V b, V c) { return _mm256_fmadd_pd(a, b, c); }
  static V mul(V a, V b) { return _mm256_mul_pd(a, b); }
};

// AVX2 + FMA fallback. A is always packed and zero-padded here, so full vectors may be loaded;
// the partial last vector is stored through a small buffer.
struct Avx2Kernel {
template <class T, int MV, int NC>
using Tile = typename Y<T>::V[MV][NC];

// acc += A(:, p) * B(p, 0:NC), B(p, j) = b(j); then a moves to column p + 1.
template <class T, int MV, int NC, class BAt>
static void step(Tile<T, MV, NC>& acc, const T* __restrict& a, i64 as, BAt b) {
  using W = Y<T>;
  typename W::V av[MV];
#pragma GCC unroll 8
  for (int v = 0; v < MV; ++v) av[v] = W::load(a + v * W::L);
#pragma GCC unroll 64
  for (int j = 0; j < NC; ++j) {
    const typename W::V bv = W::set1(b(j));
#pragma GCC unroll 8
    for (int v = 0; v < MV; ++v) acc[v][j] = W::fma(av[v], bv, acc[v][j]);
  }
  a += as;
}

template <class T, int MV, int NC>
static void store(const Tile<T, MV, NC>& acc, T* c, i64 ldc, T alpha, T beta, int mlast) {
  using W = Y<T>;
  using V = typename W::V;
  constexpr int L = W::L;
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

template <class T, int MV, int NC>
static void zero(Tile<T, MV, NC>& acc) {
#pragma GCC unroll 64
  for (int j = 0; j < NC; ++j)
#pragma GCC unroll 8
    for (int v = 0; v < MV; ++v) acc[v][j] = Y<T>::zero();
}

template <class T, int MV, int NC, bool BCOL>
static void run(i64 kc, const T* __restrict a, i64 as, const T* __restrict b, i64 bs, T* __restrict c, i64 ldc,
                T alpha, T beta, int mlast, const T* prefetch, i64 prefetch_step) {
  Tile<T, MV, NC> acc;
  zero<T, MV, NC>(acc);
#pragma GCC unroll 4
  for (i64 p = 0; p < kc; ++p) {
    _mm_prefetch(reinterpret_cast<const char*>(prefetch + p * prefetch_step), _MM_HINT_T2);
    step<T, MV, NC>(acc, a, as, [&](int j) { return BCOL ? b[j * bs] : b[j]; });
    b += BCOL ? 1 : bs;
  }
  store<T, MV, NC>(acc, c, ldc, alpha, beta, mlast);
}

template <class T, int MV, int NC>
static void run_patches(i64 kc, const T* __restrict a, i64 as, const T* const* cols, i64 /*column_step*/,
                        i64 run_left, i64 run, i64 skip, T* __restrict c, i64 ldc, T alpha, T beta, int mlast,
                        const T* prefetch, i64 prefetch_step) {
  Tile<T, MV, NC> acc;
  zero<T, MV, NC>(acc);
  const T* b[NC];
#pragma GCC unroll 64
  for (int j = 0; j < NC; ++j) b[j] = cols[j];
  for (i64 p0 = 0, steps = run_left; p0 < kc; p0 += steps, steps = run) {
    steps = steps < kc - p0 ? steps : kc - p0;
#pragma GCC unroll 4
    for (i64 p = 0; p < steps; ++p) {
      _mm_prefetch(reinterpret_cast<const char*>(prefetch + (p0 + p) * prefetch_step), _MM_HINT_T2);
      step<T, MV, NC>(acc, a, as, [&](int j) { return b[j][p]; });
    }
#pragma GCC unroll 64
    for (int j = 0; j < NC; ++j) b[j] += steps + skip;
  }
  store<T, MV, NC>(acc, c, ldc, alpha, beta, mlast);
}
};

}  // namespace

template <>
const MicroKernels<float>& avx2_microkernels<float>() {
  static const MicroKernels<float> set = make_set<float, Avx2Kernel, 2, 6>(CpuIsa::avx2, 8, 384, 192, 4092, false);
  return set;
}

template <>
const MicroKernels<double>& avx2_microkernels<double>() {
  static const MicroKernels<double> set = make_set<double, Avx2Kernel, 2, 6>(CpuIsa::avx2, 4, 256, 96, 4092, false);
  return set;
}

}  // namespace portkern::kernel::cpu
#endif  // __x86_64__
