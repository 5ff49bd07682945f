// The test bed of the GEMMs on 16-bit inputs (bfloat16, float16; CPU and GPU tests): column-major operands of
// one problem with padded leading dimensions and C's padding and unread values poisoned, and the check of C
// against float64 on the rounded inputs with fp32 summation's bound over k terms (products of two 16-bit values
// are exact in fp32).
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "portkern/bfloat16.hpp"
#include "portkern/float16.hpp"
#include "testing.hpp"

namespace portkern::testing {

struct HalfCase {
  std::int64_t m, n, k;
};

template <class In>
struct HalfOperands {
  std::int64_t lda, ldb, ldc;
  std::vector<In> a, b;
  std::vector<float> c, c0;
};

// How leading dimensions are padded past the rows: by a few values (any), then rounded up to a multiple of 8
// (what the GPU's copy engine needs), made odd (what it cannot take), or made 2 or 4 more than a multiple of 8
// (4- or 8-byte aligned columns, which the wgmma pipeline's threads copy in pieces of that size).
enum class Lds { any, multiple_of_8, odd, pairs, quads };
// C's leading dimension: m + 3 (any), or the next one past m + 2 that is (aligned) or is not (unaligned) a multiple
// of 4 values, which the GPU's copy engine needs to write C.
enum class Ldc { any, aligned, unaligned };

template <class In>
HalfOperands<In> make_half_operands(const HalfCase& s, bool ta, bool tb, bool read_c, Lds lds = Lds::any,
                                    Ldc ldc = Ldc::any) {
  auto round_up = [&](std::int64_t x) {
    switch (lds) {
      case Lds::multiple_of_8: return (x + 7) / 8 * 8;
      case Lds::odd: return x | 1;
      case Lds::pairs: return (x + 7) / 8 * 8 + 2;
      case Lds::quads: return (x + 7) / 8 * 8 + 4;
      case Lds::any: break;
    }
    return x;
  };
  HalfOperands<In> o;
  o.lda = round_up((ta ? s.k : s.m) + 2), o.ldb = round_up((tb ? s.n : s.k) + 1), o.ldc = s.m + 3;
  if (ldc == Ldc::aligned) o.ldc = (s.m + 3 + 3) / 4 * 4;
  if (ldc == Ldc::unaligned && o.ldc % 4 == 0) o.ldc += 2;
  o.a = random_vector<In>(std::size_t(o.lda * std::max<std::int64_t>(1, ta ? s.m : s.k)), 21);
  o.b = random_vector<In>(std::size_t(o.ldb * std::max<std::int64_t>(1, tb ? s.k : s.n)), 22);
  o.c = random_vector<float>(std::size_t(o.ldc * s.n), 23);
  o.c0 = o.c;
  poison_unread(o.c, s.m, s.n, o.ldc, read_c);
  return o;
}

// C against alpha * op(A) op(B) + beta * C0 in float64, C's padding rows still poisoned.
template <class In>
void expect_half_product(const HalfCase& s, bool ta, bool tb, float alpha, float beta, const HalfOperands<In>& o) {
  auto a_at = [&](std::int64_t i, std::int64_t p) {
    return double(float(ta ? o.a[std::size_t(p + i * o.lda)] : o.a[std::size_t(i + p * o.lda)]));
  };
  auto b_at = [&](std::int64_t p, std::int64_t j) {
    return double(float(tb ? o.b[std::size_t(j + p * o.ldb)] : o.b[std::size_t(p + j * o.ldb)]));
  };
  const double eps = std::numeric_limits<float>::epsilon();
  for (std::int64_t j = 0; j < s.n; ++j)
    for (std::int64_t i = 0; i < o.ldc; ++i) {
      const float got = o.c[std::size_t(i + j * o.ldc)];
      if (i >= s.m) {
        ASSERT_TRUE(std::isnan(got)) << "C's padding written at (" << i << ", " << j << ")";
        continue;
      }
      double sum = 0, magnitude = 0;
      for (std::int64_t p = 0; p < s.k; ++p) sum += a_at(i, p) * b_at(p, j), magnitude += std::abs(a_at(i, p) * b_at(p, j));
      const double old = beta == 0.f ? 0.0 : double(o.c0[std::size_t(i + j * o.ldc)]);
      const double want = double(alpha) * sum + double(beta) * old;
      const double bound = eps * (double(s.k) + 4) * (std::abs(double(alpha)) * magnitude + std::abs(double(beta) * old)) + 1e-30;
      ASSERT_LE(std::abs(double(got) - want), bound) << "at (" << i << ", " << j << ")";
    }
}

// `items` of one shape laid out one after another, each A, B and C `pad_*` values past the previous one's end
// (shared_b: every item multiplies the first one's B, stride 0), C's gaps between items -7.
template <class In>
struct HalfBatch {
  std::int64_t batch, stride_a, stride_b, stride_c;
  std::vector<In> a, b;
  std::vector<float> c;

  HalfBatch(const std::vector<HalfOperands<In>>& items, std::int64_t pad_a, std::int64_t pad_b, std::int64_t pad_c,
            bool shared_b = false)
      : batch(std::int64_t(items.size())),
        stride_a(std::int64_t(items[0].a.size()) + pad_a),
        stride_b(shared_b ? 0 : std::int64_t(items[0].b.size()) + pad_b),
        stride_c(std::int64_t(items[0].c.size()) + pad_c),
        a(std::size_t(stride_a * batch)),
        b(std::size_t(std::max<std::int64_t>(stride_b * batch, std::int64_t(items[0].b.size())))),
        c(std::size_t(stride_c * batch), -7.f) {
    for (std::int64_t i = 0; i < batch; ++i) {
      std::copy(items[i].a.begin(), items[i].a.end(), a.begin() + i * stride_a);
      if (!shared_b || i == 0) std::copy(items[i].b.begin(), items[i].b.end(), b.begin() + i * stride_b);
      std::copy(items[i].c.begin(), items[i].c.end(), c.begin() + i * stride_c);
    }
  }

  // Each item's part of `result` (C after the call) against its product; the gaps between items untouched.
  void expect(std::vector<HalfOperands<In>>& items, const std::vector<float>& result, const HalfCase& s, bool ta,
              bool tb, float alpha, float beta) const {
    const std::int64_t size = std::int64_t(items[0].c.size());
    for (std::int64_t i = 0; i < batch; ++i) {
      std::copy(result.begin() + i * stride_c, result.begin() + i * stride_c + size, items[i].c.begin());
      expect_half_product(s, ta, tb, alpha, beta, items[i]);
      for (std::int64_t gap = size; gap < stride_c; ++gap)
        ASSERT_EQ(result[std::size_t(i * stride_c + gap)], -7.f) << "between items, at " << gap;
    }
  }
};

}  // namespace portkern::testing
