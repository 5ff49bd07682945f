// multinomial against its float64 reference. Integer weights (sums exact in float) must match exactly;
// real-valued weights within the spec's one index (rounding at bucket edges), always on a positive weight.
// Covers rows of 1 weight up to 3 chunks of 2048, whole CPU blocks of 1024 with and without a partial last
// one, the vector and scalar paths, zero rows, zero runs at both ends, u = 0 and u just below 1, and bad
// arguments.
#include <cmath>

#include "op_testing.hpp"
#include "ops/multinomial/reference.hpp"
#include "portkern/ops/multinomial.hpp"

namespace portkern::testing {
namespace {

namespace impl = ops::multinomial_impl;

struct Data {
  std::vector<float> w, u;
};

// Integer weights in [0, 99] with about a third zeros (rand() % 100 + 1 in the original: no zeros), or
// real-valued ones; u uniform in [0, 1).
Data make_data(std::int64_t rows, std::int64_t k, unsigned seed, bool integer) {
  std::mt19937 rng(seed);
  Data d;
  d.w.resize(std::size_t(rows * k));
  for (auto& x : d.w) x = integer ? float(rng() % 3 == 0 ? 0 : rng() % 100) : float(rng() % 1000) * 0.001234f;
  std::uniform_real_distribution<float> uni(0.f, 1.f);
  d.u.resize(std::size_t(rows));
  for (auto& x : d.u) x = uni(rng);
  return d;
}

std::vector<int> run(const Device& device, std::int64_t rows, std::int64_t k, const Data& d, std::int64_t shift = 0) {
  Queue q(device);
  std::vector<float> shifted(std::size_t(shift), 1.f);
  shifted.insert(shifted.end(), d.w.begin(), d.w.end());
  auto w = to_device(q, shifted);
  auto u = to_device(q, d.u);
  auto out = poisoned<int>(q, rows, -777);
  ops::multinomial(q, rows, k, w.data() + shift, u.data(), out.data());
  auto got = out.download(q);
  got.resize(std::size_t(rows));
  return got;
}

PORTKERN_OP_TEST(Multinomial, IntegerWeightsMatchExactly) {
  for (auto [rows, k, shift] : {std::tuple<std::int64_t, std::int64_t, std::int64_t>{7, 1, 0}, {9, 3, 0}, {5, 100, 0},
                                {5, 2048, 0}, {3, 2049, 0}, {3, 5000, 0}, {4, 4101, 0}, {4, 1028, 0}, {4, 1027, 0},
                                {4, 1028, 1},
                                // the CPU's blocks of 1024: one, one and 1 more, three and 7 more
                                {9, 1024, 0}, {9, 1025, 0}, {9, 3079, 0}}) {
    const Data d = make_data(rows, k, unsigned(k), true);
    EXPECT_TRUE(all_equal(run(device, rows, k, d, shift), impl::reference(rows, k, d.w, d.u)))
        << rows << " x " << k << " shift " << shift;
  }
}

PORTKERN_OP_TEST(Multinomial, RealWeightsWithinOneIndex) {
  const std::int64_t rows = 16, k = 3001;
  const Data d = make_data(rows, k, 11, false);
  const auto got = run(device, rows, k, d);
  const auto expected = impl::reference(rows, k, d.w, d.u);
  for (std::int64_t r = 0; r < rows; ++r) {
    EXPECT_LE(std::abs(got[std::size_t(r)] - expected[std::size_t(r)]), 1) << "row " << r;
    ASSERT_TRUE(got[std::size_t(r)] >= 0 && got[std::size_t(r)] < k);
    EXPECT_GT(d.w[std::size_t(r * k + got[std::size_t(r)])], 0.f) << "row " << r;
  }
}

PORTKERN_OP_TEST(Multinomial, EdgeRows) {
  const std::int64_t k = 2500;   // two chunks
  Data d;
  d.w.assign(std::size_t(5 * k), 0.f);
  d.u = {0.5f, 0.f, 0.99999994f, 0.5f, 1.f};
  // row 0: all zero -> 0. Rows 1, 2, 4: zeros except [10, 2300) with weight 1.
  for (std::int64_t r : {1, 2, 4})
    for (std::int64_t j = 10; j < 2300; ++j) d.w[std::size_t(r * k + j)] = 1.f;
  d.w[std::size_t(3 * k + 2400)] = 3.f;   // row 3: a single positive weight in the second chunk
  const auto got = run(device, 5, k, d);
  EXPECT_EQ(got[0], 0);
  EXPECT_EQ(got[1], 10);     // u = 0: the first positive weight
  EXPECT_EQ(got[2], 2299);   // u just below 1: the last positive weight, not a trailing zero
  EXPECT_EQ(got[3], 2400);
  EXPECT_EQ(got[4], 2299);   // u = 1 (outside [0, 1)): no bucket, the last positive weight
  EXPECT_TRUE(all_equal(got, impl::reference(5, k, d.w, d.u)));
}

PORTKERN_OP_TEST(Multinomial, NoRowsReturnAtOnce) {
  Queue q(device);
  ops::multinomial(q, 0, 10, nullptr, nullptr, nullptr);
}

PORTKERN_OP_TEST(Multinomial, BadArgumentsAreErrors) {
  Queue q(device);
  Buffer<float> w(device, 8), u(device, 2);
  Buffer<int> out(device, 2);
  EXPECT_PORTKERN_ERROR(ops::multinomial(q, 2, 0, w.data(), u.data(), out.data()), "categories = 0");
  EXPECT_PORTKERN_ERROR(ops::multinomial(q, -1, 4, w.data(), u.data(), out.data()), "rows = -1");
  EXPECT_PORTKERN_ERROR(ops::multinomial(q, 2, 4, w.data(), nullptr, out.data()), "uniforms");
}

}  // namespace
}  // namespace portkern::testing
