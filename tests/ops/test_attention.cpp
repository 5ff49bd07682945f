// attention against its float64 reference: sizes that are not multiples of any tile (1, primes), the float4
// and the scalar path (d % 4, a misaligned pointer), chunks longer than one 8-row tile with a partial last
// tile, the CPU's split into chunks and its whole and partial steps of columns, logits far beyond exp's float
// range (max subtraction), equal scores, and bad arguments.
#include "op_testing.hpp"
#include "ops/attention/plan.hpp"
#include "ops/attention/reference.hpp"
#include "portkern/ops/attention.hpp"

namespace portkern::testing {
namespace {

// |out - ref| <= 2 * gamma_d * S * max|V| + 1e-6, S = max_i sum_j |K_ij q_j|: the scores' float error is at
// most gamma_d * S (d-term dot product), and a softmax-weighted average of V moves by at most twice the
// largest score error times max|V| (<= 1 here); the rest (exp, the sums over n) is ~1e-6 relative.
double tolerance(std::int64_t n, std::int64_t d, const std::vector<float>& K, const std::vector<float>& q) {
  double S = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    double s = 0;
    for (std::int64_t j = 0; j < d; ++j) s += std::abs(double(K[std::size_t(i * d + j)]) * q[std::size_t(j)]);
    S = std::max(S, s);
  }
  return 2.0 * double(d) * 6e-8 * S + 1e-6;
}

void check_attention(const Device& device, std::int64_t n, std::int64_t d, float q_scale = 1.f,
                     std::int64_t offset = 0, bool equal_rows = false) {
  Queue q(device);
  auto K = random_vector<float>(std::size_t(n * d), 11);
  const auto V = random_vector<float>(std::size_t(n * d), 12);
  auto query = random_vector<float>(std::size_t(d), 13);
  for (auto& x : query) x *= q_scale;
  if (equal_rows)
    for (std::int64_t i = 1; i < n; ++i) std::copy(K.begin(), K.begin() + d, K.begin() + i * d);
  // `offset` floats in front of every array: offset 1 makes the pointers misaligned (the scalar path).
  auto shifted = [&](const std::vector<float>& h) {
    std::vector<float> s(std::size_t(offset), 0.f);
    s.insert(s.end(), h.begin(), h.end());
    return s;
  };
  auto dK = to_device(q, shifted(K)), dV = to_device(q, shifted(V)), dq = to_device(q, shifted(query));
  auto out = poisoned<float>(q, d + offset, poison<float>);
  const std::int64_t ws = ops::attention_workspace_size(n, d);
  auto work = poisoned<float>(q, ws + offset, poison<float>);
  ops::attention(q, n, d, dK.data() + offset, dV.data() + offset, dq.data() + offset, out.data() + offset,
                 work.data() + offset);
  auto got = out.download(q);
  got.erase(got.begin(), got.begin() + offset);
  got.resize(std::size_t(d));
  const auto want = ops::attention_impl::reference(n, d, K, V, query);
  EXPECT_TRUE(all_close(got, want, tolerance(n, d, K, query)))
      << "n " << n << " d " << d << " q_scale " << q_scale << " offset " << offset;
}

PORTKERN_OP_TEST(Attention, OddSizesBothPaths) {
  for (auto [n, d] : std::vector<std::pair<std::int64_t, std::int64_t>>{
           {1, 1}, {1, 4}, {2, 7}, {9, 3}, {17, 8}, {13, 129}, {300, 37}, {31, 1028}, {1031, 64}, {4099, 12}})
    check_attention(device, n, d);
  check_attention(device, 37, 1032, 1.f, /*offset=*/1);   // d % 4 == 0 but misaligned: scalar path
}

PORTKERN_OP_TEST(Attention, LongChunksWithPartialTile) {
  // n = 6001: 16 rows per chunk (n / 512 rounded up to 8), last chunk 1 row; every chunk uses 2 tiles.
  ASSERT_EQ(ops::attention_impl::make_plan(6001, 20).chunk_rows, 16);
  check_attention(device, 6001, 20);
  check_attention(device, 6001, 5);
}

PORTKERN_OP_TEST(Attention, CpuChunksAndColumnSteps) {
  // The CPU's split: multiples of 8 rows, at most 256, never more chunks than the workspace was sized for.
  for (std::int64_t n : {1, 9, 300, 6001, 100000})
    for (int threads : {1, 2, 64}) {
      const auto cpu = ops::attention_impl::make_cpu_plan(n, 20, threads), gpu = ops::attention_impl::make_plan(n, 20);
      EXPECT_EQ(cpu.chunk_rows % 8, 0);
      EXPECT_LE(cpu.chunk_rows, ops::attention_impl::max_chunk_rows);
      EXPECT_LE(cpu.chunks, gpu.chunks);
      EXPECT_EQ(cpu.chunks, (n + cpu.chunk_rows - 1) / cpu.chunk_rows);
    }
  // Its steps of 128 columns: whole steps only, whole steps and a partial one; chunks of whole 8-row tiles,
  // and chunks ending in single rows.
  check_attention(device, 257, 256);
  check_attention(device, 1000, 300);
  check_attention(device, 4100, 131);
}

PORTKERN_OP_TEST(Attention, LargeLogitsAreStable) {
  // |s| up to ~ 40 * 33 * 0.55 = 700: exp(s) overflows float without the max subtraction.
  check_attention(device, 200, 33, 40.f);
  check_attention(device, 1200, 16, 60.f);
}

PORTKERN_OP_TEST(Attention, EqualScoresAverageTheValues) {
  check_attention(device, 777, 9, 1.f, 0, /*equal_rows=*/true);
}

PORTKERN_OP_TEST(Attention, EmptyAndBadArguments) {
  Queue q(device);
  Buffer<float> a(device, 64), out(device, 8), work(device, 64);
  EXPECT_EQ(ops::attention_workspace_size(0, 5), 0);
  EXPECT_EQ(ops::attention_workspace_size(5, 0), 0);
  ops::attention(q, 4, 0, nullptr, nullptr, nullptr, nullptr, nullptr);   // d = 0: nothing to do
  EXPECT_PORTKERN_ERROR(ops::attention(q, 0, 4, a.data(), a.data(), a.data(), out.data(), work.data()), "n = 0");
  EXPECT_PORTKERN_ERROR(ops::attention(q, -3, 4, a.data(), a.data(), a.data(), out.data(), work.data()), "n = -3");
  EXPECT_PORTKERN_ERROR(ops::attention(q, 2, -1, a.data(), a.data(), a.data(), out.data(), work.data()), "d = -1");
  EXPECT_PORTKERN_ERROR(ops::attention(q, 2, 4, nullptr, a.data(), a.data(), out.data(), work.data()), "keys");
  EXPECT_PORTKERN_ERROR(ops::attention(q, 2, 4, a.data(), a.data(), a.data(), out.data(), nullptr), "workspace");
  EXPECT_PORTKERN_ERROR(ops::attention_workspace_size(-1, 4), "n = -1");
}

}  // namespace
}  // namespace portkern::testing
