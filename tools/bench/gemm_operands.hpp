// One GEMM shape's operands on a device, random (uniform in [-1, 1]) and in as many copies as it takes for
// calls that rotate through them not to find their inputs in the cache; and the sampled error of a result
// against float64. Shared by `portkern bench gemm` and `portkern tune gemm`.
#pragma once

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "bench/memory_check.hpp"
#include "bench/shapes.hpp"
#include "bench/vendor_gemm.hpp"
#include "portkern/checked.hpp"
#include "portkern/runtime/buffer.hpp"

namespace portkern::bench {

// One shape's operands on the device, in `sets` copies that calls rotate through so that repeated calls do
// not find their inputs in the cache.
template <class T>
struct Operands {
  GemmShape s;
  std::int64_t lda, ldb, ldc, size_a, size_b, size_c;
  int sets;
  std::vector<T> host_a, host_b;
  Buffer<T> a, b, c;

  Operands(Queue& q, const GemmShape& shape) : s(shape) {
    lda = s.trans_a ? s.k : s.m;
    ldb = s.trans_b ? s.n : s.k;
    ldc = s.m;
    const char* fn = "portkern bench gemm";
    constexpr std::int64_t bytes_per = sizeof(T);
    size_a = checked_product({s.m, s.k, s.batch, bytes_per}, fn, "the bytes of A (m*k*batch*size)") / bytes_per;
    size_b = checked_product({s.k, s.n, s.batch, bytes_per}, fn, "the bytes of B (k*n*batch*size)") / bytes_per;
    size_c = checked_product({s.m, s.n, s.batch, bytes_per}, fn, "the bytes of C (m*n*batch*size)") / bytes_per;
    const double bytes = (double(size_a) + double(size_b) + double(size_c)) * sizeof(T);
    const double cache = q.device().is_cuda() ? 64e6 : 32e6;
    sets = int(std::clamp(std::ceil(2 * cache / bytes), 1.0, 4.0));
    check_fits_memory(q.device(), bytes * sets + (double(size_a) + double(size_b)) * sizeof(T), fn,
                      "the operands of m=" + std::to_string(s.m) + " n=" + std::to_string(s.n) + " k=" +
                          std::to_string(s.k) + " batch=" + std::to_string(s.batch) + " (" + std::to_string(sets) +
                          " copies and the host's A and B)");
    std::mt19937 rng(unsigned(std::uint64_t(s.m) * 31 + std::uint64_t(s.n) * 17 + std::uint64_t(s.k)));
    std::uniform_real_distribution<double> uniform(-1, 1);
    host_a.resize(std::size_t(size_a));
    host_b.resize(std::size_t(size_b));
    for (auto& x : host_a) x = T(uniform(rng));
    for (auto& x : host_b) x = T(uniform(rng));
    a = Buffer<T>(q.device(), size_a * sets);
    b = Buffer<T>(q.device(), size_b * sets);
    c = Buffer<T>(q.device(), size_c * sets);
    for (int i = 0; i < sets; ++i) {
      q.copy(a.data() + i * size_a, host_a.data(), std::size_t(size_a));
      q.copy(b.data() + i * size_b, host_b.data(), std::size_t(size_b));
    }
    q.wait();
  }

  GemmOperands<T> set(int i) {
    i %= sets;
    return {{s.m, s.n, s.k, T(1), a.data() + i * size_a, lda, s.m * s.k, b.data() + i * size_b, ldb, s.k * s.n, T(0),
             c.data() + i * size_c, ldc, s.m * s.n, s.batch},
            s.trans_a, s.trans_b};
  }

  // Largest |C - ref| / sum_l |a_il b_lj| over 64 sampled entries of set 0's C (NaN: unwritten or wrong).
  // The largest relative error over 64 random elements of C (only those are copied back: the tuner calls
  // this once per configuration, and C can be hundreds of MB).
  double max_rel_error(Queue& q) {
    std::mt19937 rng(7);
    std::int64_t where[64][3];
    T got[64];
    for (int sample = 0; sample < 64; ++sample) {
      where[sample][0] = rng() % s.batch, where[sample][1] = rng() % s.m, where[sample][2] = rng() % s.n;
      q.copy(&got[sample], c.data() + where[sample][0] * s.m * s.n + where[sample][2] * ldc + where[sample][1], 1);
    }
    q.wait();
    double worst = 0;
    for (int sample = 0; sample < 64; ++sample) {
      const std::int64_t p = where[sample][0], i = where[sample][1], j = where[sample][2];
      double sum = 0, magnitude = 0;
      for (std::int64_t l = 0; l < s.k; ++l) {
        const double x = host_a[p * s.m * s.k + (s.trans_a ? i * lda + l : l * lda + i)];
        const double y = host_b[p * s.k * s.n + (s.trans_b ? l * ldb + j : j * ldb + l)];
        sum += x * y;
        magnitude += std::abs(x * y);
      }
      const double error = std::abs(double(got[sample]) - sum) / std::max(magnitude, 1e-300);
      if (!(error <= worst)) worst = error;   // NaN propagates
    }
    return worst;
  }
};

}  // namespace portkern::bench
