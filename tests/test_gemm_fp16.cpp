// The GEMM on float16 inputs on the CPU (fp32 sums and C; src/gemm/half_inputs.cpp: A and B widened to fp32,
// the fp32 GEMM) against float64 on the rounded inputs: both transposes of each operand, sizes of 1 and primes,
// alpha and beta (beta == 0 with NaN in C), C's padding poisoned and untouched, strided batches, the row-major
// entry, quick returns; and float16's rounding, against every half value and the IEEE rules.
#include <bit>
#include <cmath>

#include "gemm_half_reference.hpp"

namespace portkern::testing {
namespace {

const HalfCase cases[] = {{1, 1, 1}, {1, 37, 61}, {67, 45, 33}, {131, 7, 509}, {40, 130, 40}};

TEST(GemmFp16, MatchesFloat64) {
  Queue q(Device::cpu(), 2);
  for (bool ta : {false, true})
    for (bool tb : {false, true})
      for (const HalfCase& s : cases)
        for (const auto& [alpha, beta] : {std::pair{1.f, 0.f}, std::pair{-0.75f, 0.5f}}) {
          SCOPED_TRACE("m=" + std::to_string(s.m) + " n=" + std::to_string(s.n) + " k=" + std::to_string(s.k) +
                       " ta=" + std::to_string(ta) + " tb=" + std::to_string(tb) + " beta=" + std::to_string(beta));
          HalfOperands<float16> o = make_half_operands<float16>(s, ta, tb, beta != 0.f);
          gemm(q, ta ? Op::trans : Op::none, tb ? Op::trans : Op::none, s.m, s.n, s.k, alpha, o.a.data(), o.lda,
               o.b.data(), o.ldb, beta, o.c.data(), o.ldc);
          expect_half_product(s, ta, tb, alpha, beta, o);
        }
}

TEST(GemmFp16, BatchesMatchFloat64) {
  Queue q(Device::cpu(), 2);
  const HalfCase s{29, 31, 37};
  const std::int64_t batch = 3;
  std::vector<HalfOperands<float16>> items;
  for (std::int64_t i = 0; i < batch; ++i) items.push_back(make_half_operands<float16>(s, true, false, true));
  const auto& first = items[0];
  HalfBatch<float16> batched(items, 3, 5, 7);
  gemm_strided_batched(q, Op::trans, Op::none, s.m, s.n, s.k, 0.5f, batched.a.data(), first.lda, batched.stride_a,
                       batched.b.data(), first.ldb, batched.stride_b, 2.f, batched.c.data(), first.ldc,
                       batched.stride_c, batch);
  batched.expect(items, batched.c, s, true, false, 0.5f, 2.f);
}

TEST(GemmFp16, RowMajorQuickReturnsAndChecks) {
  Queue q(Device::cpu(), 1);
  const std::int64_t m = 5, n = 7, k = 3;
  const auto a = random_vector<float16>(std::size_t(m * k), 61), b = random_vector<float16>(std::size_t(k * n), 62);
  std::vector<float> c(std::size_t(m * n), poison<float>);
  gemm(q, Layout::row_major, Op::none, Op::none, m, n, k, 1.f, a.data(), k, b.data(), n, 0.f, c.data(), n);
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = 0; j < n; ++j) {
      double want = 0;
      for (std::int64_t p = 0; p < k; ++p) want += double(float(a[std::size_t(i * k + p)])) * double(float(b[std::size_t(p * n + j)]));
      ASSERT_NEAR(c[std::size_t(i * n + j)], want, 1e-6) << "at (" << i << ", " << j << ")";
    }
  const float16* none = nullptr;
  gemm(q, Op::none, Op::none, 4, 4, 0, 1.f, none, 4, none, 4, 0.5f, c.data(), 4);   // k == 0: beta * C
  EXPECT_PORTKERN_ERROR(gemm(q, Op::none, Op::none, 8, 4, 4, 1.f, a.data(), 7, b.data(), 4, 0.f, c.data(), 8), "lda = 7");
  EXPECT_PORTKERN_ERROR(gemm(q, Op::none, Op::none, 8, 4, 4, 1.f, none, 8, b.data(), 4, 0.f, c.data(), 8), "portkern::gemm (float16)");
}

TEST(Float16, RoundsToNearestEven) {
  auto bits_of = [](float x) { return float16(x).bits; };
  EXPECT_EQ(bits_of(1.f), 0x3c00);
  EXPECT_EQ(bits_of(-2.f), 0xc000);
  EXPECT_EQ(bits_of(65504.f), 0x7bff);                                   // the largest half
  EXPECT_EQ(bits_of(65519.f), 0x7bff);                                   // below the tie: stays finite
  EXPECT_EQ(bits_of(65520.f), 0x7c00);                                   // the tie rounds to even: infinity
  EXPECT_EQ(bits_of(0x1p-24f), 0x0001);                                  // the smallest subnormal
  EXPECT_EQ(bits_of(0x1p-25f), 0x0000);                                  // half of it: a tie, to even zero
  EXPECT_EQ(bits_of(0x1.8p-24f), 0x0002);                                // 1.5 ulp: a tie, to even (2)
  EXPECT_EQ(bits_of(0x1.ff8p-15f), 0x03ff);                              // the largest subnormal
  EXPECT_EQ(bits_of(0x1.ffcp-15f), 0x0400);                              // a tie above it, to even: the smallest normal
  EXPECT_EQ(bits_of(std::bit_cast<float>(0x3f801000u)), 0x3c00);        // 1 + 2^-11: a tie, to even (1)
  EXPECT_EQ(bits_of(std::bit_cast<float>(0x3f803000u)), 0x3c02);        // 1 + 3 * 2^-11: a tie, to even (up)
  EXPECT_EQ(bits_of(-0.f), 0x8000);
  EXPECT_EQ(bits_of(std::numeric_limits<float>::infinity()), 0x7c00);
  EXPECT_TRUE(std::isnan(float(float16(std::numeric_limits<float>::quiet_NaN()))));
  EXPECT_TRUE(std::isnan(float(float16(std::bit_cast<float>(0x7f800001u)))));   // a NaN whose upper bits are Inf
  for (unsigned h = 0; h < 65536; ++h) {   // every half: exact to float, and back to itself
    const float x = float(float16::from_bits(std::uint16_t(h)));
    if (std::isnan(x)) continue;
    ASSERT_EQ(float16(x).bits, h) << "half " << h;
  }
  EXPECT_EQ(float(float16::from_bits(0x0001)), 0x1p-24f);
  EXPECT_EQ(float(float16::from_bits(0x7bff)), 65504.f);
  EXPECT_EQ(float(float16::from_bits(0xfc00)), -std::numeric_limits<float>::infinity());
}

}  // namespace
}  // namespace portkern::testing
