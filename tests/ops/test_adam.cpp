// adam against its float64 reference: both modes, 1 / 7 / 200 inner steps, sizes around the group size,
// two consecutive calls (m and v carry over, t restarts), steps = 0 and count = 0, bad arguments.
#include <cmath>

#include "op_testing.hpp"
#include "ops/adam/reference.hpp"
#include "portkern/ops/adam.hpp"

namespace portkern::testing {
namespace {

void check_adam(const Device& device, std::int64_t count, const ops::AdamOptions& o, int calls = 1) {
  Queue q(device);
  const auto n = std::size_t(count);
  auto p0 = random_vector<float>(n, 11), m0 = random_vector<float>(n, 12), v0 = random_vector<float>(n, 13);
  const auto g = random_vector<float>(n, 14);
  for (auto& x : v0) x = std::abs(x) * 1e-4f;   // a second moment: >= 0, of the size of (g/256)^2 .. 1e-4
  for (auto& x : m0) x *= 1e-2f;
  auto p = to_device(q, p0), m = to_device(q, m0), v = to_device(q, v0);
  auto gd = to_device(q, g);
  std::vector<double> pr(p0.begin(), p0.end()), mr(m0.begin(), m0.end()), vr(v0.begin(), v0.end());
  for (int call = 0; call < calls; ++call) {
    ops::adam(q, count, p.data(), m.data(), v.data(), gd.data(), o);
    ops::adam_impl::reference(o, pr, mr, vr, g);
  }
  // f32 state rounded once per step (rel 6e-8) over up to 400 dependent steps, plus beta^t as a running
  // product (~t ulp): a few 1e-6 relative at most; 1e-5 abs + 1e-5 rel leaves a margin and still catches a
  // wrong formula (mode 0 vs 1 differ by ~1e-4 here, a missed step by ~1e-3).
  const std::string what = "count " + std::to_string(count) + " steps " + std::to_string(o.steps) + " mode " +
                           std::to_string(int(o.mode));
  auto got_p = p.download(q), got_m = m.download(q), got_v = v.download(q);
  got_p.resize(n), got_m.resize(n), got_v.resize(n);
  EXPECT_TRUE(all_close(got_p, pr, 1e-5, 1e-5)) << "p " << what;
  EXPECT_TRUE(all_close(got_m, mr, 1e-7, 1e-5)) << "m " << what;
  EXPECT_TRUE(all_close(got_v, vr, 1e-10, 1e-5)) << "v " << what;
}

PORTKERN_OP_TEST(Adam, BothModesAgainstReference) {
  for (auto mode : {ops::AdamMode::eps_inside_sqrt, ops::AdamMode::adamw}) {
    for (int steps : {1, 7, 200}) {
      ops::AdamOptions o;
      o.mode = mode;
      o.steps = steps;
      for (std::int64_t count : {1, 63, 64, 65, 1031}) check_adam(device, count, o);
    }
  }
}

PORTKERN_OP_TEST(Adam, StateCarriesOverBetweenCalls) {
  ops::AdamOptions o;
  o.steps = 50;
  check_adam(device, 257, o, 3);
  o.mode = ops::AdamMode::adamw;
  o.lr = 1e-2f, o.decay = 0.01f, o.grad_scale = 3.f, o.eps = 1e-6f, o.beta1 = 0.5f;
  check_adam(device, 129, o, 2);
}

PORTKERN_OP_TEST(Adam, ModesDiffer) {   // the test can tell eps inside from outside the sqrt
  Queue q(device);
  const std::vector<float> zeros(5, 0.f), grad = {1e-3f, -2e-3f, 5e-4f, 1e-2f, -1e-4f};
  std::vector<std::vector<float>> result;
  for (auto mode : {ops::AdamMode::eps_inside_sqrt, ops::AdamMode::adamw}) {
    auto p = to_device(q, std::vector<float>(5, 0.5f)), m = to_device(q, zeros), v = to_device(q, zeros);
    auto g = to_device(q, grad);
    ops::AdamOptions o;
    o.mode = mode;
    o.steps = 3;
    ops::adam(q, 5, p.data(), m.data(), v.data(), g.data(), o);
    result.push_back(p.download(q));
  }
  double diff = 0;
  for (int i = 0; i < 5; ++i) diff = std::max(diff, double(std::abs(result[0][i] - result[1][i])));
  EXPECT_GT(diff, 1e-6);
}

PORTKERN_OP_TEST(Adam, NothingToDoReturnsAtOnce) {
  Queue q(device);
  ops::adam(q, 0, nullptr, nullptr, nullptr, nullptr);
  auto p = to_device(q, std::vector<float>{0.25f, 0.5f});
  auto m = to_device(q, std::vector<float>{0.1f, 0.1f}), v = to_device(q, std::vector<float>{0.1f, 0.1f});
  auto g = to_device(q, std::vector<float>{1.f, 1.f});
  ops::AdamOptions o;
  o.steps = 0;
  ops::adam(q, 2, p.data(), m.data(), v.data(), g.data(), o);
  EXPECT_TRUE(all_equal(p.download(q), std::vector<float>{0.25f, 0.5f}));
}

PORTKERN_OP_TEST(Adam, BadArgumentsAreErrors) {
  Queue q(device);
  Buffer<float> p(device, 4), m(device, 4), v(device, 4), g(device, 4);
  ops::AdamOptions o;
  EXPECT_PORTKERN_ERROR(ops::adam(q, -1, p.data(), m.data(), v.data(), g.data(), o), "count = -1");
  o.beta1 = 1.f;
  EXPECT_PORTKERN_ERROR(ops::adam(q, 4, p.data(), m.data(), v.data(), g.data(), o), "options.beta1 = 1");
  o = {};
  o.grad_scale = 0.f;
  EXPECT_PORTKERN_ERROR(ops::adam(q, 4, p.data(), m.data(), v.data(), g.data(), o), "options.grad_scale = 0");
  o = {};
  o.steps = -2;
  EXPECT_PORTKERN_ERROR(ops::adam(q, 4, p.data(), m.data(), v.data(), g.data(), o), "options.steps = -2");
  o = {};
  o.mode = static_cast<ops::AdamMode>(2);
  EXPECT_PORTKERN_ERROR(ops::adam(q, 4, p.data(), m.data(), v.data(), g.data(), o), "options.mode = 2");
  EXPECT_PORTKERN_ERROR(ops::adam(q, 4, p.data(), m.data(), v.data(), static_cast<const float*>(nullptr)), "g");
}

}  // namespace
}  // namespace portkern::testing
