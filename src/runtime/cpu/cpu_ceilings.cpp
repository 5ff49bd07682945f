// The CPU's ceilings, measured: an FMA loop on every core with enough independent vector chains to fill the
// FMA pipes (in the widest SIMD the CPU executes, chosen at run time: AVX-512, AVX2 + FMA or SSE2), and a large
// parallel copy (bytes read + written).
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <memory>
#include <vector>

#include "runtime/cpu/cpu_backend.hpp"

namespace portkern::detail::cpu {

namespace {

using clock = std::chrono::steady_clock;

// FLOP/s of `iterations` rounds of 12 independent FMA chains per thread, all threads at once, in vectors of
// `bytes`. The chains are named variables (GCC keeps an array of vectors on the stack), each pinned to a
// register by an empty asm so the compiler can neither fold nor spill it. Stamped out once per instruction set:
// the chains run in a function of their own carrying the target, called from the parallel region (clang
// outlines a region's body without its enclosing function's target, where 64-byte vectors have no register).
#if defined(__x86_64__) || defined(__i386__)
#define PORTKERN_TARGET(isa) __attribute__((target(isa)))
#define PORTKERN_VECTOR_REGISTER "+v"
#else
#define PORTKERN_TARGET(isa)                            // one loop, for the architecture the file is built for
#define PORTKERN_VECTOR_REGISTER "+w"                   // aarch64: an FP/SIMD register
#endif
#define PORTKERN_FMA_LOOP(function, target_isa, bytes)                                                              \
  template <class T>                                                                                               \
  PORTKERN_TARGET(target_isa) __attribute__((noinline)) T function##_chains(long iterations, int thread) {         \
    using V [[gnu::vector_size(bytes)]] = T;                                                                       \
    const V a = V{} + T(0.999), b = V{} + T(0.001);                                                                \
    V x0 = V{} + T(thread), x1 = x0 + 1, x2 = x0 + 2, x3 = x0 + 3, x4 = x0 + 4, x5 = x0 + 5, x6 = x0 + 6,          \
      x7 = x0 + 7, x8 = x0 + 8, x9 = x0 + 9, x10 = x0 + 10, x11 = x0 + 11;                                         \
    for (long i = 0; i < iterations; ++i) {                                                                        \
      x0 = x0 * a + b, x1 = x1 * a + b, x2 = x2 * a + b, x3 = x3 * a + b, x4 = x4 * a + b, x5 = x5 * a + b;         \
      x6 = x6 * a + b, x7 = x7 * a + b, x8 = x8 * a + b, x9 = x9 * a + b, x10 = x10 * a + b, x11 = x11 * a + b;     \
      asm volatile("" : PORTKERN_VECTOR_REGISTER(x0), PORTKERN_VECTOR_REGISTER(x1), PORTKERN_VECTOR_REGISTER(x2),    \
                   PORTKERN_VECTOR_REGISTER(x3), PORTKERN_VECTOR_REGISTER(x4), PORTKERN_VECTOR_REGISTER(x5));       \
      asm volatile("" : PORTKERN_VECTOR_REGISTER(x6), PORTKERN_VECTOR_REGISTER(x7), PORTKERN_VECTOR_REGISTER(x8),    \
                   PORTKERN_VECTOR_REGISTER(x9), PORTKERN_VECTOR_REGISTER(x10), PORTKERN_VECTOR_REGISTER(x11));     \
    }                                                                                                              \
    const V total = x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7 + x8 + x9 + x10 + x11;                                   \
    return total[0];                                                                                               \
  }                                                                                                                \
  template <class T>                                                                                               \
  double function(long iterations) {                                                                               \
    constexpr int chains = 12, lanes = bytes / sizeof(T);                                                          \
    double seconds = 0;                                                                                            \
    int threads = 1;                                                                                               \
    clock::time_point start;                                                                                       \
    T sink = 0;                                                                                                    \
    _Pragma("omp parallel reduction(+ : sink)") {                                                                  \
      _Pragma("omp single") threads = omp_get_num_threads();                                                       \
      _Pragma("omp single") start = clock::now();   /* its implicit barrier starts every thread together */       \
      sink += function##_chains<T>(iterations, omp_get_thread_num());                                              \
      _Pragma("omp barrier");                                                                                      \
      _Pragma("omp single") seconds = std::chrono::duration<double>(clock::now() - start).count();                 \
    }                                                                                                              \
    (void)sink;                                                                                                    \
    return 2.0 * chains * lanes * double(iterations) * threads / seconds / 1e9;                                    \
  }

#if defined(__x86_64__) || defined(__i386__)
PORTKERN_FMA_LOOP(fma_gflops_avx512, "avx512f,fma", 64)
PORTKERN_FMA_LOOP(fma_gflops_avx2, "avx2,fma", 32)
PORTKERN_FMA_LOOP(fma_gflops_sse2, "sse2", 16)

template <class T>
double fma_gflops(long iterations) {
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) return fma_gflops_avx512<T>(iterations);
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return fma_gflops_avx2<T>(iterations);
  return fma_gflops_sse2<T>(iterations);
}
#else
PORTKERN_FMA_LOOP(fma_gflops_simd, "", 16)   // 128-bit vectors: NEON on aarch64

template <class T>
double fma_gflops(long iterations) {
  return fma_gflops_simd<T>(iterations);
}
#endif
#undef PORTKERN_FMA_LOOP
#undef PORTKERN_TARGET
#undef PORTKERN_VECTOR_REGISTER

double copy_gbs() {
  const std::size_t count = std::size_t(64) << 20;   // 256 MiB per array: far past the caches
  std::unique_ptr<float[]> src(new float[count]), dst(new float[count]);
  auto copy = [&] {
#pragma omp parallel for schedule(static)
    for (std::size_t i = 0; i < count; ++i) dst[i] = src[i];
  };
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < count; ++i) src[i] = dst[i] = float(i & 255);   // first touch on each core
  copy();
  double best = 1e30;
  for (int r = 0; r < 3; ++r) {
    const auto start = clock::now();
    copy();
    best = std::min(best, std::chrono::duration<double>(clock::now() - start).count());
  }
  return 2.0 * count * sizeof(float) / best / 1e9;
}

}  // namespace

Ceilings measure_ceilings() {
  Ceilings c;
  fma_gflops<float>(1 << 18);   // warm-up: lets the cores reach their vector clock
  c.gflops_fp32 = fma_gflops<float>(1 << 22);
  c.gflops_fp64 = fma_gflops<double>(1 << 22);
  c.copy_gbs = copy_gbs();
  return c;
}

}  // namespace portkern::detail::cpu
