// gemm_pack_a / gemm_packed on the CPU (portkern/gemm_packed.hpp) against float64: both transposes of each
// operand, float and double, sizes of 1, primes across panel edges, depths of several blocks, more columns
// than one block of B holds, alpha and beta (beta == 0 with NaN in C), 1 and 2 threads, the epilogue the
// convolutions fuse, C's padding poisoned and untouched; the argument checks.
#include "gemm/fused.hpp"
#include "testing.hpp"

namespace portkern::testing {
namespace {

struct Case {
  std::int64_t m, n, k;
};

template <class T>
void check_packed(const Case& s, bool ta, bool tb, T alpha, T beta, int threads, int epilogue_mask) {
  SCOPED_TRACE("m=" + std::to_string(s.m) + " n=" + std::to_string(s.n) + " k=" + std::to_string(s.k) +
               " ta=" + std::to_string(ta) + " tb=" + std::to_string(tb) + " beta=" + std::to_string(double(beta)) +
               " threads=" + std::to_string(threads) + " epilogue=" + std::to_string(epilogue_mask));
  Queue q(Device::cpu(), threads);
  const std::int64_t lda = (ta ? s.k : s.m) + 2, ldb = (tb ? s.n : s.k) + 1, ldc = s.m + 3;
  auto a = random_vector<T>(std::size_t(lda * std::max<std::int64_t>(1, ta ? s.m : s.k)), 11);
  const auto b = random_vector<T>(std::size_t(ldb * std::max<std::int64_t>(1, tb ? s.k : s.n)), 12);
  const auto bias = random_vector<T>(std::size_t(s.m), 13);
  const auto residual = random_vector<T>(std::size_t(ldc * s.n), 14);
  auto c = random_vector<T>(std::size_t(ldc * s.n), 15);
  const auto c0 = c;
  poison_unread(c, s.m, s.n, ldc, beta != T(0));
  auto a_at = [&](std::int64_t i, std::int64_t p) { return double(ta ? a[std::size_t(p + i * lda)] : a[std::size_t(i + p * lda)]); };
  auto b_at = [&](std::int64_t p, std::int64_t j) { return double(tb ? b[std::size_t(j + p * ldb)] : b[std::size_t(p + j * ldb)]); };
  std::vector<double> want(std::size_t(s.m * s.n)), magnitude(std::size_t(s.m * s.n));
  for (std::int64_t j = 0; j < s.n; ++j)
    for (std::int64_t i = 0; i < s.m; ++i) {
      double sum = 0, mag = 0;
      for (std::int64_t p = 0; p < s.k; ++p) sum += a_at(i, p) * b_at(p, j), mag += std::abs(a_at(i, p) * b_at(p, j));
      want[std::size_t(i + j * s.m)] = double(alpha) * sum;
      magnitude[std::size_t(i + j * s.m)] = std::abs(double(alpha)) * mag;
    }

  const GemmPackedA<T> packed = gemm_pack_a(q, ta ? Op::trans : Op::none, s.m, s.k, a.data(), lda);
  std::fill(a.begin(), a.end(), poison<T>);   // products must read the packed copy only
  EXPECT_EQ(packed.m(), s.m);
  EXPECT_EQ(packed.k(), s.k);
  const gemm_impl::GemmEpilogue<T> epilogue{epilogue_mask & 1 ? bias.data() : nullptr,
                                            epilogue_mask & 2 ? residual.data() : nullptr, bool(epilogue_mask & 4)};
  if constexpr (std::is_same_v<T, float>)
    EXPECT_TRUE(gemm_impl::gemm_packed_with_epilogue(q, tb ? Op::trans : Op::none, s.n, alpha, packed, b.data(), ldb,
                                                     beta, c.data(), ldc, epilogue, Precision::accurate));
  else
    gemm_packed(q, tb ? Op::trans : Op::none, s.n, alpha, packed, b.data(), ldb, beta, c.data(), ldc);

  const double eps = std::numeric_limits<T>::epsilon();
  for (std::int64_t j = 0; j < s.n; ++j)
    for (std::int64_t i = 0; i < ldc; ++i) {
      const T got = c[std::size_t(j * ldc + i)];
      if (i >= s.m) {
        ASSERT_TRUE(std::isnan(got)) << "C's padding written at (" << i << ", " << j << ")";
        continue;
      }
      const double old = beta == T(0) ? 0.0 : double(c0[std::size_t(j * ldc + i)]);
      double w = want[std::size_t(i + j * s.m)] + double(beta) * old;
      if (epilogue_mask & 2) w += residual[std::size_t(j * ldc + i)];
      if (epilogue_mask & 1) w += bias[std::size_t(i)];
      if (epilogue_mask & 4) w = std::max(w, 0.0);
      const double bound = 2 * eps * (double(s.k) + 4) * (magnitude[std::size_t(i + j * s.m)] + std::abs(double(beta) * old) + 3) + 1e-300;
      ASSERT_LE(std::abs(double(got) - w), bound) << "at (" << i << ", " << j << ")";
    }
}

// 1 x 1; GEMV shapes; primes across the 64-row panels and 6-column tiles; n = 49 (batch-1 7 x 7 layers); a depth
// of several blocks; more columns than one block of B (k = 1100: blocks of 552, 267 columns); k == 0 (beta * C).
const Case cases[] = {{1, 1, 1},    {1, 37, 61},   {53, 1, 97},    {67, 45, 33}, {131, 7, 509},
                      {64, 49, 1100}, {13, 300, 1100}, {257, 301, 0}, {5, 700, 19}, {193, 49, 2311}};

TEST(GemmPacked, MatchesFloat64EveryTransposeAndThreadCount) {
  for (int threads : {1, 2})
    for (bool ta : {false, true})
      for (bool tb : {false, true})
        for (const Case& s : cases) {
          check_packed<float>(s, ta, tb, 1.25f, 0.f, threads, 0);
          check_packed<double>(s, ta, tb, -0.5, 0.75, threads, 0);
        }
}

TEST(GemmPacked, FusesTheEpilogue) {
  for (int threads : {1, 2})
    for (const Case& s : cases)
      for (int mask = 1; mask < 8; ++mask) check_packed<float>(s, false, false, 0.5f, mask % 3 ? 0.f : 1.5f, threads, mask);
}

TEST(GemmPacked, ArgumentsAreChecked) {
  Queue q(Device::cpu());
  std::vector<float> a(64, 1), b(64, 1), c(64, 1);
  EXPECT_PORTKERN_ERROR(gemm_pack_a(q, Op::none, 4, 3, a.data(), 3), "argument lda = 3 must be >= max(1, m) = 4");
  EXPECT_PORTKERN_ERROR(gemm_pack_a(q, Op::trans, 4, 3, a.data(), 2), "argument lda = 2 must be >= max(1, k) = 3");
  EXPECT_PORTKERN_ERROR(gemm_pack_a(q, Op::none, -1, 3, a.data(), 3), "argument m = -1 must be >= 0");
  EXPECT_PORTKERN_ERROR(gemm_pack_a(q, Op::none, 4, 3, static_cast<const float*>(nullptr), 4), "argument a = nullptr");
  const GemmPackedA<float> packed = gemm_pack_a(q, Op::none, 4, 3, a.data(), 4);
  EXPECT_PORTKERN_ERROR(gemm_packed(q, Op::none, 2, 1.f, packed, b.data(), 2, 0.f, c.data(), 4),
                        "argument ldb = 2 must be >= max(1, k) = 3");
  EXPECT_PORTKERN_ERROR(gemm_packed(q, Op::none, 2, 1.f, packed, b.data(), 3, 0.f, c.data(), 3),
                        "argument ldc = 3 must be >= max(1, m) = 4");
  EXPECT_PORTKERN_ERROR(gemm_packed(q, Op::none, -2, 1.f, packed, b.data(), 3, 0.f, c.data(), 4),
                        "argument n = -2 must be >= 0");
  EXPECT_PORTKERN_ERROR(gemm_packed(q, Op::none, 2, 1.f, packed, static_cast<const float*>(nullptr), 3, 0.f, c.data(), 4),
                        "argument b = nullptr");
  gemm_packed(q, Op::none, 0, 1.f, packed, static_cast<const float*>(nullptr), 3, 0.f,
              static_cast<float*>(nullptr), 4);   // n == 0: nothing is read or written
  const GemmPackedA<float> empty = gemm_pack_a(q, Op::none, 0, 3, static_cast<const float*>(nullptr), 1);
  EXPECT_EQ(empty.m(), 0);
}

}  // namespace
}  // namespace portkern::testing
