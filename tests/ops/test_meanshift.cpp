// meanshift against its float64 reference (one iteration), both kernels: point counts around the group
// (16 / 64) and the tile (256), a small radius that masks most pairs, isolated points (stay put), the
// blobs converging to the spec's 3 centroids, n = 0 and bad arguments.
#include <cmath>

#include "op_testing.hpp"
#include "ops/meanshift/reference.hpp"
#include "portkern/ops/meanshift.hpp"

namespace portkern::testing {
namespace {

using ops::MeanShiftKernel;

// Random points in [-6, 6]^3 on a 1/8 grid: squared distances are exact in f32 (any evaluation order), so
// the radius test agrees with the reference exactly.
std::vector<float> grid_points(std::int64_t n, unsigned seed) {
  auto p = random_vector<float>(std::size_t(3 * n), seed);
  for (auto& x : p) x = std::round(x * 6.f * 8.f) / 8.f;
  return p;
}

void check_meanshift(const Device& device, MeanShiftKernel kind, std::int64_t n, float sigma, float radius2) {
  Queue q(device);
  const auto host = grid_points(n, unsigned(n) + 1);
  auto in = to_device(q, host);
  auto out = poisoned<float>(q, 3 * n, poison<float>);
  ops::meanshift(q, n, in.data(), out.data(), sigma, radius2, kind);
  auto got = out.download(q);
  got.resize(std::size_t(3 * n));
  // Weighted means of coordinates <= 6 with weights in (0, 1]: f32 sums of <= 700 terms and fast_exp
  // (~2 ulp): ~1e-6; 2e-5 abs leaves a margin and catches a wrong weight (a missed neighbour moves a
  // coordinate by ~1e-2).
  EXPECT_TRUE(all_close(got, ops::meanshift_impl::reference(n, host, sigma, radius2), 2e-5, 1e-5))
      << "n " << n << " kind " << int(kind) << " sigma " << sigma << " radius2 " << radius2;
}

PORTKERN_OP_TEST(Meanshift, OneIterationAgainstReference) {
  for (auto kind : {MeanShiftKernel::tiled, MeanShiftKernel::global}) {
    for (std::int64_t n : {1, 15, 16, 17, 255, 256, 257, 700}) check_meanshift(device, kind, n, 4.f, 60.f);
    check_meanshift(device, kind, 300, 1.f, 2.f);   // most pairs masked out
  }
}

PORTKERN_OP_TEST(Meanshift, IsolatedPointsStayPut) {
  Queue q(device);
  const std::vector<float> host = {0.f, 0.f, 0.f, 100.f, 0.f, 0.f, 0.f, -50.f, 3.5f};
  auto in = to_device(q, host);
  for (auto kind : {MeanShiftKernel::tiled, MeanShiftKernel::global}) {
    auto out = poisoned<float>(q, 9, poison<float>);
    ops::meanshift(q, 3, in.data(), out.data(), 4.f, 60.f, kind);
    EXPECT_TRUE(all_equal(out.download(q), host));
  }
}

PORTKERN_OP_TEST(Meanshift, BlobsConvergeToThreeCentroids) {
  Queue q(device);
  const std::int64_t n = 500;
  const auto host = ops::meanshift_impl::make_blobs(n, 7);
  // Blurring mean shift collapses each (isolated) blob onto one point near its mean (not exactly: the radius
  // cuts a few far pairs); the greedy check alone would pass on the raw blobs too, so every point must also
  // end within 1e-1 of its blob's mean (they start ~2.6 away) and within 1e-3 of its blob's first point.
  double mean[3][3] = {};
  for (std::int64_t i = 0; i < n; ++i)
    for (int k = 0; k < 3; ++k) mean[i % 3][k] += host[std::size_t(3 * i + k)] / double((n - i % 3 + 2) / 3);
  for (auto kind : {MeanShiftKernel::tiled, MeanShiftKernel::global}) {
    auto a = to_device(q, host);
    auto b = poisoned<float>(q, 3 * n, poison<float>);
    for (int it = 0; it < 10; ++it) {
      ops::meanshift(q, n, a.data(), b.data(), 4.f, 60.f, kind);
      std::swap(a, b);
    }
    auto got = a.download(q);
    got.resize(std::size_t(3 * n));
    EXPECT_TRUE(ops::meanshift_impl::centroids_match(got, 60.0)) << "kind " << int(kind);
    double worst = 0;
    for (std::int64_t i = 0; i < n; ++i)
      for (int k = 0; k < 3; ++k) worst = std::max(worst, std::abs(got[std::size_t(3 * i + k)] - mean[i % 3][k]));
    EXPECT_LT(worst, 1e-1) << "kind " << int(kind);
    double spread = 0;
    for (std::int64_t i = 3; i < n; ++i)
      for (int k = 0; k < 3; ++k)
        spread = std::max(spread, double(std::abs(got[std::size_t(3 * i + k)] - got[std::size_t(3 * (i % 3) + k)])));
    EXPECT_LT(spread, 1e-3) << "kind " << int(kind);
  }
}

PORTKERN_OP_TEST(Meanshift, NothingToDoReturnsAtOnce) {
  Queue q(device);
  ops::meanshift(q, 0, nullptr, nullptr);
}

PORTKERN_OP_TEST(Meanshift, BadArgumentsAreErrors) {
  Queue q(device);
  Buffer<float> in(device, 12), out(device, 12);
  EXPECT_PORTKERN_ERROR(ops::meanshift(q, -1, in.data(), out.data()), "n = -1");
  EXPECT_PORTKERN_ERROR(ops::meanshift(q, 4, in.data(), out.data(), 0.f), "sigma = 0");
  EXPECT_PORTKERN_ERROR(ops::meanshift(q, 4, in.data(), out.data(), 4.f, -1.f), "radius2 = -1");
  EXPECT_PORTKERN_ERROR(ops::meanshift(q, 4, in.data(), out.data(), 4.f, 60.f, static_cast<MeanShiftKernel>(5)),
                        "kind = 5");
  EXPECT_PORTKERN_ERROR(ops::meanshift(q, 4, in.data(), in.data()), "argument out");
  EXPECT_PORTKERN_ERROR(ops::meanshift(q, 4, static_cast<const float*>(nullptr), out.data()), "in");
}

}  // namespace
}  // namespace portkern::testing
