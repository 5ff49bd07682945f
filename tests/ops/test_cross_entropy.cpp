// cross_entropy_backward against its float64 reference (the corrected gradient), for half, float and
// double: positions that are prime (scalar path), multiples of 2/4/8 (each vector width), whole and partial
// CPU groups of positions, an unaligned pointer, class counts not multiples of the unroll, masks on
// (grad_out_neg used), targets out of range, valid log-softmax inputs, and bad arguments.
#include <cmath>

#include "op_testing.hpp"
#include "ops/cross_entropy/reference.hpp"
#include "portkern/ops/cross_entropy.hpp"

namespace portkern::testing {
namespace {

namespace impl = ops::cross_entropy_impl;

template <class T>
T from_double(double x) {
  if constexpr (std::is_same_v<T, half>) return kernel::to_half(float(x));
  else return T(x);
}

// Tolerances, relative (|grad| <= |gamma| (1 + e) < 8 here) plus a small absolute floor: double 1e-13; float
// a few ulps of exp and the product, 1e-6; half: inputs are exact halves and the result is rounded once from
// float, half an ulp = 2^-11 relative (4.9e-4) plus float error: 6e-4.
template <class T>
double rel_tolerance() {
  return std::is_same_v<T, double> ? 1e-13 : std::is_same_v<T, float> ? 1e-6 : 6e-4;
}

template <class T>
void check(const Device& device, std::int64_t batch, std::int64_t classes, std::int64_t positions, unsigned seed,
           std::int64_t shift = 0, bool valid_log_softmax = false) {
  Queue q(device);
  const std::size_t n = std::size_t(batch * classes * positions), m = std::size_t(batch * positions);
  const auto lr = random_vector<double>(n, seed);
  std::vector<T> L(std::size_t(shift) + n, from_double<T>(0.5));
  for (std::size_t i = 0; i < n; ++i) L[std::size_t(shift) + i] = from_double<T>(lr[i]);
  if (valid_log_softmax)   // L[b][.][h] = log_softmax of the random values over the classes
    for (std::int64_t b = 0; b < batch; ++b)
      for (std::int64_t h = 0; h < positions; ++h) {
        double s = 0;
        for (std::int64_t k = 0; k < classes; ++k) s += std::exp(lr[std::size_t((b * classes + k) * positions + h)]);
        for (std::int64_t k = 0; k < classes; ++k) {
          const std::size_t j = std::size_t((b * classes + k) * positions + h);
          L[std::size_t(shift) + j] = from_double<T>(lr[j] - std::log(s));
        }
      }
  std::vector<T> w(m), go(m), gn(m);
  const auto r1 = random_vector<double>(m, seed + 1), r2 = random_vector<double>(m, seed + 2),
             r3 = random_vector<double>(m, seed + 3);
  for (std::size_t i = 0; i < m; ++i) w[i] = from_double<T>(std::abs(r1[i])), go[i] = from_double<T>(r2[i]),
                                      gn[i] = from_double<T>(r3[i]);
  std::mt19937 rng(seed + 4);
  std::vector<std::int64_t> target(m), mask(m);
  for (std::size_t i = 0; i < m; ++i) {
    target[i] = std::int64_t(rng() % std::uint32_t(classes + 2)) - 1;   // includes -1 and classes: no one-hot
    mask[i] = rng() % 2;
  }
  auto dL = to_device(q, L);
  auto dt = to_device(q, target), dm = to_device(q, mask);
  auto dw = to_device(q, w), dgo = to_device(q, go), dgn = to_device(q, gn);
  const T nan = from_double<T>(std::nan(""));
  auto grad = poisoned<T>(q, std::int64_t(n) + shift, nan);
  ops::cross_entropy_backward(q, batch, classes, positions, dL.data() + shift, dt.data(), dw.data(), dgo.data(),
                              dgn.data(), dm.data(), grad.data() + shift);
  const auto all = grad.download(q);
  std::vector<double> got(n);
  for (std::size_t i = 0; i < n; ++i) got[i] = impl::as_double(all[std::size_t(shift) + i]);
  const std::vector<T> L0(L.begin() + shift, L.end());
  EXPECT_TRUE(all_close(got, impl::reference<T>(batch, classes, positions, L0, target, w, go, gn, mask),
                        rel_tolerance<T>() * 1e-2, rel_tolerance<T>()))
      << sizeof(T) << "-byte " << batch << " x " << classes << " x " << positions << " shift " << shift;
}

template <class T>
void check_all(const Device& device) {
  check<T>(device, 2, 81, 131, 1);        // prime positions: scalar
  check<T>(device, 3, 7, 200, 2);         // 200 = 8 * 25: the widest vector
  check<T>(device, 2, 5, 1100, 3);        // several groups per batch entry
  check<T>(device, 1, 3, 4, 4);
  check<T>(device, 2, 6, 36, 5, 1);       // unaligned: scalar
  check<T>(device, 2, 10, 64, 6, 0, true);
  check<T>(device, 1, 1, 1, 7);
  // The CPU's groups of 1024 positions: exactly one, two and one position more (a last group of 1), one
  // short of a group; 1, 4 and 9 classes (blocks of 4 classes and single ones).
  check<T>(device, 2, 9, 1024, 8);
  check<T>(device, 1, 4, 2049, 9);
  check<T>(device, 2, 1, 1023, 10);
}

PORTKERN_OP_TEST(CrossEntropy, HalfMatchesReference) { check_all<half>(device); }
PORTKERN_OP_TEST(CrossEntropy, FloatMatchesReference) { check_all<float>(device); }
PORTKERN_OP_TEST(CrossEntropy, DoubleMatchesReference) {
  check_all<double>(device);
  check<double>(device, 2, 4, 6, 8);   // 6 = 2 * 3: width 2 for double
}

PORTKERN_OP_TEST(CrossEntropy, IsTheLogSoftmaxGradient) {
  // One position, valid L = log_softmax(x): grad must equal d/dx of gamma * L_t, i.e. gamma * ([k == t] - p_k),
  // and sum to 0 over k (the original's extra L_t factor would not).
  Queue q(device);
  const std::vector<double> x = {0.3, -1.2, 2.0};
  double s = 0;
  for (double v : x) s += std::exp(v);
  std::vector<double> L;
  for (double v : x) L.push_back(v - std::log(s));
  auto dL = to_device(q, L);
  auto dt = to_device(q, std::vector<std::int64_t>{1}), dm = to_device(q, std::vector<std::int64_t>{1});
  auto dw = to_device(q, std::vector<double>{0.5}), dgo = to_device(q, std::vector<double>{0.25}),
       dgn = to_device(q, std::vector<double>{1.0});
  auto grad = poisoned<double>(q, 3, NAN);
  ops::cross_entropy_backward(q, 1, 3, 1, dL.data(), dt.data(), dw.data(), dgo.data(), dgn.data(), dm.data(),
                              grad.data());
  const auto got = grad.download(q);
  const double gamma = -(0.25 + 1.0) * 0.5;
  double total = 0;
  for (int k = 0; k < 3; ++k) {
    EXPECT_NEAR(got[std::size_t(k)], gamma * ((k == 1) - std::exp(L[std::size_t(k)])), 1e-14);
    total += got[std::size_t(k)];
  }
  EXPECT_NEAR(total, 0.0, 1e-14);
}

PORTKERN_OP_TEST(CrossEntropy, EmptyReturnsAtOnce) {
  Queue q(device);
  ops::cross_entropy_backward(q, 4, 0, 7, static_cast<const float*>(nullptr), nullptr, nullptr, nullptr, nullptr,
                              nullptr, static_cast<float*>(nullptr));
}

PORTKERN_OP_TEST(CrossEntropy, BadArgumentsAreErrors) {
  Queue q(device);
  Buffer<float> L(device, 12), w(device, 4), go(device, 4), gn(device, 4), grad(device, 12);
  Buffer<std::int64_t> t(device, 4), m(device, 4);
  EXPECT_PORTKERN_ERROR(ops::cross_entropy_backward(q, -1, 3, 4, L.data(), t.data(), w.data(), go.data(), gn.data(),
                                                    m.data(), grad.data()),
                        "batch = -1");
  EXPECT_PORTKERN_ERROR(ops::cross_entropy_backward(q, 1, -3, 4, L.data(), t.data(), w.data(), go.data(), gn.data(),
                                                    m.data(), grad.data()),
                        "classes = -3");
  EXPECT_PORTKERN_ERROR(ops::cross_entropy_backward(q, 1, 3, -4, L.data(), t.data(), w.data(), go.data(), gn.data(),
                                                    m.data(), grad.data()),
                        "positions = -4");
  EXPECT_PORTKERN_ERROR(ops::cross_entropy_backward(q, 1, 3, 4, L.data(), t.data(), w.data(), go.data(), gn.data(),
                                                    static_cast<const std::int64_t*>(nullptr), grad.data()),
                        "mask");
}

}  // namespace
}  // namespace portkern::testing
