// What the operator tests share. Each tests/ops/test_<op>.cpp is compiled twice: into the CPU test program
// (its tests run on Device::cpu()) and into the GPU one (PORTKERN_OPS_ON_GPU: the same tests on cuda:0,
// labelled `gpu`, skipped without a GPU). Write a test once:
//
//   PORTKERN_OP_TEST(Flip, OddShapes) {   // `device` is the device under test
//     Queue q(device);
//     ...
//   }
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include "testing.hpp"

#if PORTKERN_OPS_ON_GPU
#define PORTKERN_OP_SUITE(Suite) Suite##Cuda
#define PORTKERN_OP_DEVICE_CHECK() PORTKERN_REQUIRE_GPU()
#define PORTKERN_OP_DEVICE ::portkern::Device::cuda(0)
#else
#define PORTKERN_OP_SUITE(Suite) Suite##Cpu
#define PORTKERN_OP_DEVICE_CHECK() (void)0
#define PORTKERN_OP_DEVICE ::portkern::Device::cpu()
#endif
#define PORTKERN_OP_TEST_NAME(Suite, Name) PORTKERN_OP_SUITE(Suite), Name
#define PORTKERN_OP_TEST_EXPAND(...) TEST(__VA_ARGS__)
#define PORTKERN_OP_TEST(Suite, Name)                                         \
  static void Suite##_##Name##_body(const ::portkern::Device& device);        \
  PORTKERN_OP_TEST_EXPAND(PORTKERN_OP_TEST_NAME(Suite, Name)) {               \
    PORTKERN_OP_DEVICE_CHECK();                                               \
    Suite##_##Name##_body(PORTKERN_OP_DEVICE);                                \
  }                                                                           \
  static void Suite##_##Name##_body(const ::portkern::Device& device)

namespace portkern::testing {

// A device buffer holding `host` (count >= 1 even for empty host data, so pointers are valid).
template <class T>
Buffer<T> to_device(Queue& q, const std::vector<T>& host) {
  Buffer<T> b(q.device(), std::max<std::int64_t>(1, std::int64_t(host.size())));
  if (!host.empty()) b.upload(q, host);
  return b;
}

// A device buffer of `count` elements, every one set to `value` (poison it: NaN, or -999 for integers).
template <class T>
Buffer<T> poisoned(Queue& q, std::int64_t count, T value) {
  Buffer<T> b(q.device(), std::max<std::int64_t>(1, count));
  q.fill(b.data(), value, b.size());
  q.wait();
  return b;
}

// |actual - expected| <= abs_tol + rel_tol * |expected| for every element; reports the worst few.
template <class A, class E>
::testing::AssertionResult all_close(std::span<const A> actual, std::span<const E> expected, double abs_tol,
                                     double rel_tol = 0) {
  if (actual.size() < expected.size())
    return ::testing::AssertionFailure() << "actual has " << actual.size() << " elements, expected "
                                         << expected.size();
  std::size_t bad = 0, worst = 0;
  double worst_excess = -1;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const double a = double(actual[i]), e = double(expected[i]);
    const double bound = abs_tol + rel_tol * std::abs(e);
    const bool ok = std::abs(a - e) <= bound || (std::isnan(a) && std::isnan(e)) || (a == e);
    if (ok) continue;
    ++bad;
    const double excess = std::isnan(a) ? INFINITY : std::abs(a - e) - bound;
    if (excess > worst_excess) worst_excess = excess, worst = i;
  }
  if (bad == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << bad << " of " << expected.size() << " elements differ; worst at " << worst
                                       << ": " << double(actual[worst]) << " vs " << double(expected[worst]);
}
template <class A, class E>
::testing::AssertionResult all_close(const std::vector<A>& actual, const std::vector<E>& expected, double abs_tol,
                                     double rel_tol = 0) {
  return all_close(std::span<const A>(actual), std::span<const E>(expected), abs_tol, rel_tol);
}

// Exact equality, element by element (for copies, permutations, integers).
template <class T>
::testing::AssertionResult all_equal(const std::vector<T>& actual, const std::vector<T>& expected) {
  for (std::size_t i = 0; i < expected.size(); ++i)
    if (!(actual[i] == expected[i]))
      return ::testing::AssertionFailure() << "element " << i << ": " << actual[i] << " vs " << expected[i];
  return ::testing::AssertionSuccess();
}

}  // namespace portkern::testing
