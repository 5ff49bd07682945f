// glu against its float64 reference: every axis (and negative axes) of odd-sized 1-4-D shapes, the vector
// path (rows a multiple of 4, aligned) and its scalar fallback (a misaligned pointer), rows shorter and longer
// than a group's step, extreme and NaN gates, an empty tensor, and bad arguments.
#include "op_testing.hpp"
#include "ops/glu/reference.hpp"
#include "portkern/ops/glu.hpp"

namespace portkern::testing {
namespace {

// Tolerance: Y = p * sigmoid(q) in float has a few ulp of relative error (expf <= 2 ulp, one add, one divide,
// one multiply), so 1e-6 relative (8 ulp) is generous and still fails on any wrong element.
constexpr double rel_tol = 1e-6, abs_tol = 1e-30;

std::int64_t numel_of(const std::vector<std::int64_t>& shape) {
  std::int64_t n = 1;
  for (auto e : shape) n *= e;
  return n;
}

void check_glu(const Device& device, std::vector<std::int64_t> shape, int axis, std::vector<float> host = {},
               int misalign = 0) {
  Queue q(device);
  const std::int64_t numel = numel_of(shape);
  if (host.empty()) host = random_vector<float>(std::size_t(numel), 11);
  for (auto& v : host) v *= 6;   // [-6, 6] as the spec
  std::vector<float> padded(std::size_t(misalign), 0.5f);
  padded.insert(padded.end(), host.begin(), host.end());
  auto x = to_device(q, padded);
  auto y = poisoned<float>(q, numel / 2 + misalign, poison<float>);
  ops::glu(q, shape, axis, x.data() + misalign, y.data() + misalign);
  auto got = y.download(q);
  got.erase(got.begin(), got.begin() + misalign);
  got.resize(std::size_t(numel / 2));
  std::ostringstream what;
  for (auto e : shape) what << e << ' ';
  what << "axis " << axis << " misalign " << misalign;
  EXPECT_TRUE(all_close(got, ops::glu_impl::reference(shape, axis, host), abs_tol, rel_tol)) << what.str();
}

PORTKERN_OP_TEST(Glu, EveryAxis) {
  const std::vector<std::vector<std::int64_t>> shapes = {{2}, {1030}, {3, 2}, {2, 7}, {5, 4, 13}, {3, 2, 1, 6},
                                                         {2, 6, 10, 2}};
  for (const auto& shape : shapes) {
    const int rank = int(shape.size());
    for (int axis = -rank; axis < rank; ++axis)
      if (shape[axis < 0 ? axis + rank : axis] % 2 == 0) check_glu(device, shape, axis);
  }
}

PORTKERN_OP_TEST(Glu, VectorPathAndFallback) {
  check_glu(device, {7, 24, 3}, 1);          // rows of 36: vectors, rows shorter than a step
  check_glu(device, {3, 2, 2051 * 4}, 1);    // rows longer than a step (and a partial group)
  check_glu(device, {1, 4, 1}, -2);          // one row of 2
  check_glu(device, {7, 24, 3}, 1, {}, 1);   // misaligned: the scalar fallback
  check_glu(device, {2, 4099 * 2}, -1, {}, 2);
  // Rows a whole number of steps long (row_walk's aligned case: 256 items x 1 on the CPU, x 4 on CUDA),
  // several groups, a partial last one.
  check_glu(device, {3, 2 * 512}, -1);
  check_glu(device, {5, 2 * 2048}, 1);
}

PORTKERN_OP_TEST(Glu, ExtremeAndNanGates) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  // shape {2, 6}, axis 1: p = row[0..3), q = row[3..6); the test multiplies inputs by 6.
  std::vector<float> host = {1, nan, 1, -20, 20, 0.1f, 1, 1, 1, nan, 1e6f, -1e6f};
  check_glu(device, {2, 6}, 1, host);
}

PORTKERN_OP_TEST(Glu, EmptyTensorReturnsAtOnce) {
  Queue q(device);
  const std::vector<std::int64_t> shape = {4, 0, 3};
  ops::glu(q, shape, 0, static_cast<const float*>(nullptr), static_cast<float*>(nullptr));
}

PORTKERN_OP_TEST(Glu, BadArgumentsAreErrors) {
  Queue q(device);
  Buffer<float> x(device, 30), y(device, 30);
  const std::vector<std::int64_t> shape = {2, 3, 5}, negative = {2, -4}, too_long(9, 2), none;
  EXPECT_PORTKERN_ERROR(ops::glu(q, shape, 1, x.data(), y.data()), "shape[1] = 3");
  EXPECT_PORTKERN_ERROR(ops::glu(q, shape, -1, x.data(), y.data()), "shape[2] = 5");
  EXPECT_PORTKERN_ERROR(ops::glu(q, shape, 3, x.data(), y.data()), "axis = 3");
  EXPECT_PORTKERN_ERROR(ops::glu(q, shape, -4, x.data(), y.data()), "axis = -4");
  EXPECT_PORTKERN_ERROR(ops::glu(q, negative, 0, x.data(), y.data()), "shape[1] = -4");
  EXPECT_PORTKERN_ERROR(ops::glu(q, too_long, 0, x.data(), y.data()), "shape.size() = 9");
  EXPECT_PORTKERN_ERROR(ops::glu(q, none, 0, x.data(), y.data()), "shape.size() = 0");
  EXPECT_PORTKERN_ERROR(ops::glu(q, shape, 0, static_cast<const float*>(nullptr), y.data()), "x");
}

}  // namespace
}  // namespace portkern::testing
