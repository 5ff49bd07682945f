// The plain C++ micro-kernels of the packed GEMM (portkern/kernel/cpu/microkernel.hpp): any CPU, compiled with
// the library's own flags (so with -march=native they are what the compiler makes of the host's SIMD, and with
// PORTKERN_CPU_ARCH=x86-64 SSE2). The device class cpu-generic runs them; they are also the reference the other
// ISAs' micro-kernels are tested beside.
//
// Register tile: vectors of 4 floats / 2 doubles (one SSE register), 2 vectors x 6 columns: 12 accumulator
// registers of SSE2's 16. float MR x NR = 8 x 6, double 4 x 6; KC 256, MC 128 (derived from the usual 32 KiB
// L1 and 256 KiB+ L2, not tuned). A is always packed (zero-padded to whole vectors), so a column of the A
// panel is read whole; only `rows` rows of C are touched.
#include <cstdint>

#include "gemm/cpu_packed/kernel_set.hpp"

namespace portkern::kernel::cpu {
namespace {

using i64 = std::int64_t;

struct GenericKernel {
  template <class T, int MV, int NC, class BAt>
  static void product(i64 k, const T* __restrict a, i64 a_step, BAt b, T* __restrict c, i64 ldc, T alpha, T beta,
                      int last_rows, const T* prefetch, i64 prefetch_step) {
    constexpr int lanes = 16 / int(sizeof(T));
    constexpr int mr = MV * lanes;
    T acc[NC][mr] = {};
    for (i64 p = 0; p < k; ++p) {
      __builtin_prefetch(prefetch + p * prefetch_step, 0, 1);
      for (int j = 0; j < NC; ++j) {
        const T bj = b(p, j);
#pragma GCC ivdep
        for (int i = 0; i < mr; ++i) acc[j][i] += a[i] * bj;
      }
      a += a_step;
    }
    const int rows = (MV - 1) * lanes + last_rows;
    for (int j = 0; j < NC; ++j) {
      T* cj = c + j * ldc;
      if (beta == T(0))
        for (int i = 0; i < rows; ++i) cj[i] = alpha * acc[j][i];
      else
        for (int i = 0; i < rows; ++i) cj[i] = alpha * acc[j][i] + beta * cj[i];
    }
  }

  template <class T, int MV, int NC, bool BColumns>
  static void run(i64 k, const T* __restrict a, i64 a_step, const T* __restrict b, i64 b_step, T* __restrict c,
                  i64 ldc, T alpha, T beta, int last_rows, const T* prefetch, i64 prefetch_step) {
    product<T, MV, NC>(
        k, a, a_step, [&](i64 p, int j) { return BColumns ? b[p + j * b_step] : b[p * b_step + j]; }, c, ldc, alpha,
        beta, last_rows, prefetch, prefetch_step);
  }

  template <class T, int MV, int NC>
  static void run_patches(i64 k, const T* __restrict a, i64 a_step, const T* const* cols, i64 /*column_step*/,
                          i64 run_left, i64 run, i64 skip, T* __restrict c, i64 ldc, T alpha, T beta, int last_rows,
                          const T* prefetch, i64 prefetch_step) {
    const auto jumps = [&](i64 p) { return p < run_left ? 0 : 1 + (p - run_left) / run; };
    product<T, MV, NC>(
        k, a, a_step, [&](i64 p, int j) { return cols[j][p + skip * jumps(p)]; }, c, ldc, alpha, beta, last_rows,
        prefetch, prefetch_step);
  }
};

}  // namespace

template <>
const MicroKernels<float>& generic_microkernels<float>() {
  static const MicroKernels<float> set = make_set<float, GenericKernel, 2, 6>(CpuIsa::generic, 4, 256, 128, 4092, false);
  return set;
}

template <>
const MicroKernels<double>& generic_microkernels<double>() {
  static const MicroKernels<double> set = make_set<double, GenericKernel, 2, 6>(CpuIsa::generic, 2, 256, 128, 4092, false);
  return set;
}

}  // namespace portkern::kernel::cpu
