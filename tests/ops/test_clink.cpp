// clink against its float64 reference: sequence counts and lengths around the group (32) and the time chunk
// (64), both weight "files", distinct rows (a row mix-up shows), zero-size calls and bad arguments.
#include "op_testing.hpp"
#include "ops/clink/reference.hpp"
#include "portkern/ops/clink.hpp"

namespace portkern::testing {
namespace {

void check_clink(const Device& device, std::int64_t n, std::int64_t t, unsigned weight_seed) {
  Queue q(device);
  const auto w = ops::clink_weights(ops::clink_impl::make_weight_file(weight_seed));
  auto host = ops::clink_impl::make_input(n, t, 5);
  // make rows differ beyond the rotation (short sequences rotate onto themselves)
  const auto jitter = random_vector<float>(host.size(), 3);
  for (std::size_t k = 0; k < host.size(); ++k) host[k] += 0.3f * jitter[k];
  auto x = to_device(q, host);
  auto y = poisoned<float>(q, n * t, poison<float>);
  ops::clink(q, n, t, w, x.data(), y.data());
  auto got = y.download(q);
  got.resize(std::size_t(n * t));
  std::vector<std::int64_t> rows(static_cast<std::size_t>(n));
  for (std::int64_t s = 0; s < n; ++s) rows[std::size_t(s)] = s;
  // f32 rounding in ~30 operations per step; the recurrence is contracting (|f| < 1, tanh' <= 1), so the
  // error stays near 1e-6 instead of growing with t: 2e-5 is a margin, a wrong gate order is off by ~1e-1.
  EXPECT_TRUE(all_close(got, ops::clink_impl::reference(w, t, host, rows), 2e-5, 1e-5))
      << n << " sequences x " << t << " steps, weights " << weight_seed;
}

PORTKERN_OP_TEST(Clink, OddSizesAgainstReference) {
  for (std::int64_t n : {1, 31, 33, 70})
    for (std::int64_t t : {1, 63, 64, 65, 200}) check_clink(device, n, t, 1);
  check_clink(device, 40, 1500, 2);   // a long run: no drift over many chunks
}

PORTKERN_OP_TEST(Clink, AllZeroWeightsGiveOutB) {   // h stays 0 ... except through g = tanh(0) = 0: y = out_b
  Queue q(device);
  std::vector<float> values(146, 0.f);
  values[145] = 0.75f;
  const auto w = ops::clink_weights(values);
  auto x = to_device(q, random_vector<float>(3 * 70, 9));
  auto y = poisoned<float>(q, 3 * 70, poison<float>);
  ops::clink(q, 3, 70, w, x.data(), y.data());
  auto got = y.download(q);
  got.resize(3 * 70);
  EXPECT_TRUE(all_equal(got, std::vector<float>(3 * 70, 0.75f)));
}

PORTKERN_OP_TEST(Clink, NothingToDoReturnsAtOnce) {
  Queue q(device);
  const auto w = ops::clink_weights(ops::clink_impl::make_weight_file(1));
  ops::clink(q, 0, 100, w, nullptr, nullptr);
  ops::clink(q, 100, 0, w, nullptr, nullptr);
}

PORTKERN_OP_TEST(Clink, BadArgumentsAreErrors) {
  Queue q(device);
  Buffer<float> x(device, 8), y(device, 8);
  const auto w = ops::clink_weights(ops::clink_impl::make_weight_file(1));
  EXPECT_PORTKERN_ERROR(ops::clink(q, -1, 8, w, x.data(), y.data()), "sequences = -1");
  EXPECT_PORTKERN_ERROR(ops::clink(q, 1, -8, w, x.data(), y.data()), "steps = -8");
  EXPECT_PORTKERN_ERROR(ops::clink(q, 1, 8, w, static_cast<const float*>(nullptr), y.data()), "x");
  const std::vector<float> short_file(145, 0.f);
  EXPECT_PORTKERN_ERROR(ops::clink_weights(short_file), "values.size() = 145");
}

}  // namespace
}  // namespace portkern::testing
