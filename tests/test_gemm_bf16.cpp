// The BF16 GEMM (bfloat16 A and B, fp32 sums and C; src/gemm/bf16/bf16_gemm.hpp) against float64 on the rounded
// inputs: every kernel this CPU runs (AMX, AVX512-BF16, plain C++), both transposes of each operand, sizes of 1,
// primes across the 32 x 32 blocks and 32-deep chunks, depths of several k blocks, more columns than one block
// of B, 1 and 2 threads, alpha and beta (beta == 0 with NaN in C), C's padding poisoned and untouched; the
// public entry points (row-major, quick returns, argument checks) and bfloat16's rounding.
#include <cmath>
#include <cstring>

#include "gemm/bf16/bf16_gemm.hpp"
#include "gemm_half_reference.hpp"

namespace portkern::testing {
namespace {

using Case = HalfCase;
using Operands = HalfOperands<bfloat16>;

// 1 x 1; GEMV-like shapes and few rows (the direct product: m <= 8, 1-3 rows past a group of 4, columns past
// a group of 4, a partial last chunk); primes across the 32 x 32 blocks and 32-deep chunks; k = 1100 (three k
// blocks); m = 257 (two row blocks of 256); n = 1030 (two column blocks of 1024); 200 x 200 (a 2 x 1 grid).
const Case cases[] = {{1, 1, 1},     {1, 37, 61},    {6, 13, 70},    {8, 9, 33},     {9, 5, 3},
                      {53, 1, 97},   {67, 45, 33},   {33, 31, 1100}, {131, 7, 509},  {257, 67, 64},
                      {40, 1030, 40}, {200, 200, 600}};

TEST(GemmBf16, EveryKernelOfThisCpuMatchesFloat64) {
  for (const gemm_impl::bf16::KernelSet& kernels : gemm_impl::bf16::kernels_here())
    for (int threads : {1, 2})
      for (bool ta : {false, true})
        for (bool tb : {false, true})
          for (const Case& s : cases)
            for (const auto& [alpha, beta] : {std::pair{1.f, 0.f}, std::pair{-0.75f, 0.5f}}) {
              SCOPED_TRACE(std::string(kernels.name) + " m=" + std::to_string(s.m) + " n=" + std::to_string(s.n) +
                           " k=" + std::to_string(s.k) + " ta=" + std::to_string(ta) + " tb=" + std::to_string(tb) +
                           " beta=" + std::to_string(beta) + " threads=" + std::to_string(threads));
              Operands o = make_half_operands<bfloat16>(s, ta, tb, beta != 0.f);
              const gemm_impl::GemmArgs<float, bfloat16> p{s.m, s.n, s.k, alpha, o.a.data(), o.lda, 0, o.b.data(),
                                                            o.ldb, 0, beta, o.c.data(), o.ldc, 0, 1};
              gemm_impl::bf16::run(kernels, ta, tb, p, threads);
              expect_half_product(s, ta, tb, alpha, beta, o);
            }
}

// Batches: whole problems per thread (4 on 2 threads) and each problem over both threads (3), items apart by
// more than their size; C between the items must stay as it was.
TEST(GemmBf16, BatchesMatchFloat64) {
  for (const gemm_impl::bf16::KernelSet& kernels : gemm_impl::bf16::kernels_here())
    for (std::int64_t batch : {3, 4})
      for (bool ta : {false, true}) {
        SCOPED_TRACE(std::string(kernels.name) + " batch=" + std::to_string(batch) + " ta=" + std::to_string(ta));
        const Case s{45, 70, 77};
        std::vector<Operands> items;
        for (std::int64_t i = 0; i < batch; ++i) items.push_back(make_half_operands<bfloat16>(s, ta, true, true));
        const Operands& first = items[0];
        HalfBatch<bfloat16> batched(items, 3, 5, 7);
        const gemm_impl::GemmArgs<float, bfloat16> p{
            s.m, s.n, s.k, 0.5f, batched.a.data(), first.lda, batched.stride_a, batched.b.data(), first.ldb,
            batched.stride_b, 2.f, batched.c.data(), first.ldc, batched.stride_c, batch};
        gemm_impl::bf16::run(kernels, ta, true, p, 2);
        batched.expect(items, batched.c, s, ta, true, 0.5f, 2.f);
      }
}

TEST(GemmBf16, FastestKernelIsThePublicOnes) {
  // What portkern::gemm runs, through its own entry point, on one case of each transpose.
  Queue q(Device::cpu(), 2);
  for (bool ta : {false, true})
    for (bool tb : {false, true}) {
      const Case s{75, 69, 130};
      Operands o = make_half_operands<bfloat16>(s, ta, tb, true);
      gemm(q, ta ? Op::trans : Op::none, tb ? Op::trans : Op::none, s.m, s.n, s.k, 1.5f, o.a.data(), o.lda,
           o.b.data(), o.ldb, -1.f, o.c.data(), o.ldc);
      expect_half_product(s, ta, tb, 1.5f, -1.f, o);
    }
}

TEST(GemmBf16, RowMajorIsTheTransposedProduct) {
  Queue q(Device::cpu(), 1);
  const std::int64_t m = 19, n = 35, k = 41;
  const auto a = random_vector<bfloat16>(std::size_t(m * k), 31);   // row-major m x k
  const auto b = random_vector<bfloat16>(std::size_t(k * n), 32);   // row-major k x n
  std::vector<float> c(std::size_t(m * n), poison<float>);
  gemm(q, Layout::row_major, Op::none, Op::none, m, n, k, 1.f, a.data(), k, b.data(), n, 0.f, c.data(), n);
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = 0; j < n; ++j) {
      double want = 0, magnitude = 0;
      for (std::int64_t p = 0; p < k; ++p) {
        const double x = double(float(a[std::size_t(i * k + p)])) * double(float(b[std::size_t(p * n + j)]));
        want += x, magnitude += std::abs(x);
      }
      ASSERT_NEAR(c[std::size_t(i * n + j)], want, 1e-6 * magnitude) << "at (" << i << ", " << j << ")";
    }
}

TEST(GemmBf16, QuickReturnsAndScaling) {
  Queue q(Device::cpu(), 2);
  const bfloat16* none = nullptr;
  const auto a = random_vector<bfloat16>(64, 41), b = random_vector<bfloat16>(64, 42);
  std::vector<float> c(16, 2.f);
  gemm(q, Op::none, Op::none, 0, 4, 4, 1.f, a.data(), 4, b.data(), 4, 0.f, c.data(), 4);   // m == 0: untouched
  gemm(q, Op::none, Op::none, 4, 0, 4, 1.f, a.data(), 4, b.data(), 4, 0.f, c.data(), 4);
  for (float x : c) ASSERT_EQ(x, 2.f);
  gemm(q, Op::none, Op::none, 4, 4, 0, 1.f, none, 4, none, 4, 0.5f, c.data(), 4);   // k == 0: beta * C
  for (float x : c) ASSERT_EQ(x, 1.f);
  gemm(q, Op::none, Op::none, 4, 4, 4, 0.f, a.data(), 4, b.data(), 4, 3.f, c.data(), 4);   // alpha == 0
  for (float x : c) ASSERT_EQ(x, 3.f);
  std::fill(c.begin(), c.end(), poison<float>);
  gemm(q, Op::none, Op::none, 4, 4, 0, 1.f, a.data(), 4, b.data(), 4, 0.f, c.data(), 4);   // beta == 0: zeros
  for (float x : c) ASSERT_EQ(x, 0.f);
}

TEST(GemmBf16, BadArgumentsNameThemselves) {
  Queue q(Device::cpu(), 1);
  const bfloat16* none = nullptr;
  const auto a = random_vector<bfloat16>(64, 51), b = random_vector<bfloat16>(64, 52);
  std::vector<float> c(64);
  EXPECT_PORTKERN_ERROR(gemm(q, Op::none, Op::none, 8, 4, 4, 1.f, a.data(), 7, b.data(), 4, 0.f, c.data(), 8), "lda = 7");
  EXPECT_PORTKERN_ERROR(gemm(q, Op::none, Op::trans, 8, 4, 4, 1.f, a.data(), 8, b.data(), 3, 0.f, c.data(), 8), "ldb = 3");
  EXPECT_PORTKERN_ERROR(gemm(q, Op::none, Op::none, 8, 4, 4, 1.f, a.data(), 8, b.data(), 4, 0.f, c.data(), 5), "ldc = 5");
  EXPECT_PORTKERN_ERROR(gemm(q, Op::none, Op::none, -1, 4, 4, 1.f, a.data(), 8, b.data(), 4, 0.f, c.data(), 8), "m = -1");
  EXPECT_PORTKERN_ERROR(gemm(q, Op::none, Op::none, 8, 4, 4, 1.f, none, 8, b.data(), 4, 0.f, c.data(), 8), "portkern::gemm (bfloat16)");
}

TEST(Bfloat16, RoundsToNearestEven) {
  auto bits_of = [](float x) { return bfloat16(x).bits; };
  EXPECT_EQ(bits_of(1.f), 0x3f80);
  EXPECT_EQ(bits_of(std::bit_cast<float>(0x3f808000u)), 0x3f80);   // a tie, to the even neighbour below
  EXPECT_EQ(bits_of(std::bit_cast<float>(0x3f818000u)), 0x3f82);   // a tie, to the even neighbour above
  EXPECT_EQ(bits_of(std::bit_cast<float>(0x3f808001u)), 0x3f81);   // above the tie: up
  EXPECT_EQ(bits_of(-2.5f), 0xc020);
  EXPECT_EQ(bits_of(std::numeric_limits<float>::infinity()), 0x7f80);
  EXPECT_EQ(bits_of(std::numeric_limits<float>::max()), 0x7f80);   // beyond the largest bfloat16: infinity
  EXPECT_TRUE(std::isnan(float(bfloat16(std::numeric_limits<float>::quiet_NaN()))));
  EXPECT_TRUE(std::isnan(float(bfloat16(std::bit_cast<float>(0x7f800001u)))));   // a NaN whose high half is Inf
  for (float x : {0.f, -0.f, 1.f, 3.140625f, -1e-30f, 6.5e4f}) EXPECT_EQ(float(bfloat16(float(bfloat16(x)))), float(bfloat16(x)));
}

}  // namespace
}  // namespace portkern::testing
