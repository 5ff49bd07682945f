// expdist against its float64 reference on random point sets (not the benchmark's all-equal data), sizes
// around the 128 x 256 block (every trailing point must count), the spec's analytic case, determinism,
// empty sets (cost 0) and bad arguments.
#include <cmath>

#include "op_testing.hpp"
#include "ops/expdist/reference.hpp"
#include "portkern/ops/expdist.hpp"

namespace portkern::testing {
namespace {

template <class T>
struct Data {
  std::vector<T> a, b, sa, sb;
};

template <class T>
Data<T> random_data(std::int64_t m, std::int64_t n, unsigned seed) {
  Data<T> d{random_vector<T>(std::size_t(2 * m), seed), random_vector<T>(std::size_t(2 * n), seed + 1),
            random_vector<T>(std::size_t(m), seed + 2), random_vector<T>(std::size_t(n), seed + 3)};
  for (auto& x : d.a) x *= T(2);   // distances up to ~4, scales in [0.1, 1]: terms from ~1 down to ~1e-30
  for (auto& x : d.sa) x = std::abs(x) * T(0.5);
  for (auto& x : d.sb) x = std::abs(x) * T(0.5);
  return d;
}

template <class T>
T run_expdist(Queue& q, std::int64_t m, std::int64_t n, const Data<T>& d) {
  auto a = to_device(q, d.a), b = to_device(q, d.b), sa = to_device(q, d.sa), sb = to_device(q, d.sb);
  auto cost = poisoned<T>(q, 1, poison<T>);
  auto work = poisoned<T>(q, ops::expdist_workspace_size(m, n), poison<T>);
  ops::expdist(q, m, n, a.data(), b.data(), sa.data(), sb.data(), cost.data(), work.data());
  return cost.download(q)[0];
}

template <class T>
void check_expdist(const Device& device, std::int64_t m, std::int64_t n) {
  Queue q(device);
  const auto d = random_data<T>(m, n, unsigned(m * 7 + n));
  const double want = ops::expdist_impl::reference<T>(m, n, d.a, d.b, d.sa, d.sb);
  // f32: pairs summed in f32 per group (<= 32768 terms in short chains of 128 and a tree), partials in f64:
  // relative error ~1e-6; 2e-5 relative still catches one missing point of 100 (~1e-2). f64: 1e-12.
  const double rel = sizeof(T) == 4 ? 2e-5 : 1e-12;
  const T got = run_expdist(q, m, n, d);
  EXPECT_NEAR(double(got), want, rel * want) << m << " x " << n << (sizeof(T) == 4 ? " f32" : " f64");
}

PORTKERN_OP_TEST(Expdist, OddSizesAgainstReference) {
  const std::vector<std::pair<std::int64_t, std::int64_t>> sizes = {{1, 1},     {1, 300},   {300, 1},   {127, 255},
                                                                    {128, 256}, {129, 257}, {1031, 517}};
  for (auto [m, n] : sizes) {
    check_expdist<float>(device, m, n);
    check_expdist<double>(device, m, n);
  }
}

PORTKERN_OP_TEST(Expdist, SpecDataMatchesAnalyticValue) {   // A = 1, B = 0, sigma = 1: every term e^-1
  Queue q(device);
  for (std::int64_t size : {300, 1000}) {   // 1000: not a multiple of 128, HeCBench would sum 896^2 pairs
    Data<double> d{std::vector<double>(std::size_t(2 * size), 1.0), std::vector<double>(std::size_t(2 * size), 0.0),
                   std::vector<double>(std::size_t(size), 1.0), std::vector<double>(std::size_t(size), 1.0)};
    const double want = double(size) * double(size) * std::exp(-1.0);
    EXPECT_NEAR(run_expdist(q, size, size, d), want, 1e-12 * want);
    Data<float> f{{d.a.begin(), d.a.end()}, {d.b.begin(), d.b.end()}, {d.sa.begin(), d.sa.end()}, {d.sb.begin(), d.sb.end()}};
    EXPECT_NEAR(double(run_expdist(q, size, size, f)), want, 2e-6 * want);
  }
}

PORTKERN_OP_TEST(Expdist, SameInputsSameBits) {
  Queue q(device);
  const auto d = random_data<float>(700, 900, 3);
  const float first = run_expdist(q, 700, 900, d);
  for (int k = 0; k < 3; ++k) EXPECT_EQ(run_expdist(q, 700, 900, d), first);
}

PORTKERN_OP_TEST(Expdist, EmptySetGivesZero) {
  Queue q(device);
  auto cost = poisoned<float>(q, 1, poison<float>);
  ops::expdist(q, 0, 5, static_cast<const float*>(nullptr), nullptr, nullptr, nullptr, cost.data(), nullptr);
  EXPECT_EQ(cost.download(q)[0], 0.f);
  EXPECT_EQ(ops::expdist_workspace_size(0, 0), 1);
}

PORTKERN_OP_TEST(Expdist, BadArgumentsAreErrors) {
  Queue q(device);
  Buffer<double> a(device, 8), b(device, 8), s(device, 8), cost(device, 1), work(device, 1);
  EXPECT_PORTKERN_ERROR(ops::expdist(q, -1, 4, a.data(), b.data(), s.data(), s.data(), cost.data(), work.data()),
                        "m = -1");
  EXPECT_PORTKERN_ERROR(ops::expdist(q, 4, -3, a.data(), b.data(), s.data(), s.data(), cost.data(), work.data()),
                        "n = -3");
  EXPECT_PORTKERN_ERROR(ops::expdist(q, 4, 4, a.data(), b.data(), s.data(), s.data(), cost.data(), nullptr),
                        "workspace");
  EXPECT_PORTKERN_ERROR(ops::expdist_workspace_size(2, -1), "n = -1");
}

}  // namespace
}  // namespace portkern::testing
