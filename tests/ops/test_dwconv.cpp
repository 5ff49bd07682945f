// dwconv against its float64 reference: every multiplier 1..3 with k = 1, 3, 5 and the generic k (2, 4, 7),
// pads 0..3, planes that are not multiples of the 32 x 32 tile (odd, prime, 1-wide), the k = 1, pad = 1
// border ring (= bias), no bias, and bad arguments.
#include "op_testing.hpp"
#include "ops/dwconv/reference.hpp"
#include "portkern/ops/dwconv.hpp"

namespace portkern::testing {
namespace {

// Each output sums k*k + 1 terms of magnitude <= 1 (inputs, weights, bias in [-1, 1]) in float:
// |error| <= gamma_{k*k+1} * (k*k + 1) ~ (k*k + 1)^2 * 6e-8; doubled for margin.
double tolerance(int k) { return 2.0 * double(k * k + 1) * double(k * k + 1) * 6e-8; }

void check_dwconv(const Device& device, ops::DwconvShape s, bool with_bias = true) {
  Queue q(device);
  const std::int64_t in_n = s.batch * s.channels * s.height * s.width;
  const std::int64_t w_n = s.out_channels() * s.kernel * s.kernel;
  const std::int64_t out_n = s.batch * s.out_channels() * s.out_height() * s.out_width();
  const auto in = random_vector<float>(std::size_t(in_n), 21);
  const auto w = random_vector<float>(std::size_t(w_n), 22);
  const auto b = random_vector<float>(std::size_t(s.out_channels()), 23);
  auto din = to_device(q, in), dw = to_device(q, w), db = to_device(q, b);
  auto out = poisoned<float>(q, out_n, poison<float>);
  ops::dwconv(q, s, din.data(), dw.data(), with_bias ? db.data() : nullptr, out.data());
  auto got = out.download(q);
  got.resize(std::size_t(out_n));
  const auto want = ops::dwconv_impl::reference(s, in, w, with_bias ? b.data() : nullptr, 0, s.batch);
  EXPECT_TRUE(all_close(got, want, tolerance(s.kernel)))
      << "N " << s.batch << " C " << s.channels << " H " << s.height << " W " << s.width << " m " << s.multiplier
      << " k " << s.kernel << " pad " << s.pad << (with_bias ? "" : " no bias");
}

PORTKERN_OP_TEST(Dwconv, MultipliersAndWindows) {
  for (int m = 1; m <= 3; ++m)
    for (int k : {1, 3, 5}) check_dwconv(device, {2, 3, 37, 41, m, k, 1});
  for (int k : {2, 4, 7}) check_dwconv(device, {1, 2, 35, 19, 2, k, k / 2});   // the generic path
}

// Planes of several tiles in both directions (the CPU's 16 x 32, CUDA's 32 x 32), so that interior tiles (no
// bounds checks) sit next to edge tiles on every side; widths and heights that are and are not multiples of
// the tile, with and without pad, and windows wider than the pad.
PORTKERN_OP_TEST(Dwconv, InteriorAndEdgeTiles) {
  for (int k : {1, 3, 5}) {
    for (int pad : {0, 1, 2}) check_dwconv(device, {1, 2, 97, 83, 2, k, pad});
    check_dwconv(device, {2, 1, 64, 64, 4, k, 0});    // whole tiles at k = 1, pad 0: every tile interior
    check_dwconv(device, {1, 1, 66, 66, 1, k, 1});
    check_dwconv(device, {1, 3, 70, 131, 3, k, k / 2});
  }
  check_dwconv(device, {1, 2, 75, 70, 2, 4, 2});   // the generic path
  check_dwconv(device, {1, 1, 80, 77, 1, 7, 0});
}

PORTKERN_OP_TEST(Dwconv, PadsAndOddPlanes) {
  for (int pad : {0, 2, 3}) check_dwconv(device, {1, 2, 33, 65, 1, 3, pad});
  check_dwconv(device, {3, 1, 1, 1, 2, 1, 0});     // a single pixel
  check_dwconv(device, {1, 2, 1, 50, 1, 3, 1});    // one row
  check_dwconv(device, {1, 2, 67, 1, 1, 5, 2});    // one column
  check_dwconv(device, {2, 1, 3, 3, 1, 5, 1});     // window larger than the image (k <= H + 2 pad)
  check_dwconv(device, {1, 5, 40, 40, 4, 5, 1}, /*with_bias=*/false);
}

PORTKERN_OP_TEST(Dwconv, PointwiseWithPadHasBiasBorder) {
  ops::DwconvShape s{1, 2, 5, 7, 2, 1, 1};
  check_dwconv(device, s);
  Queue q(device);
  const auto in = random_vector<float>(2 * 5 * 7, 1), w = random_vector<float>(4, 2), b = random_vector<float>(4, 3);
  auto din = to_device(q, in), dw = to_device(q, w), db = to_device(q, b);
  auto out = poisoned<float>(q, 4 * 7 * 9, poison<float>);
  ops::dwconv(q, s, din.data(), dw.data(), db.data(), out.data());
  const auto got = out.download(q);
  for (int c = 0; c < 4; ++c)
    for (int y = 0; y < 7; ++y)
      for (int x = 0; x < 9; ++x)
        if (y == 0 || y == 6 || x == 0 || x == 8) {
          EXPECT_EQ(got[std::size_t((c * 7 + y) * 9 + x)], b[std::size_t(c)]);
        }
}

PORTKERN_OP_TEST(Dwconv, EmptyAndBadArguments) {
  Queue q(device);
  Buffer<float> a(device, 64);
  ops::dwconv(q, {0, 3, 8, 8, 1, 3, 1}, nullptr, nullptr, nullptr, nullptr);   // empty batch
  ops::dwconv(q, {2, 0, 8, 8, 1, 3, 1}, nullptr, nullptr, nullptr, nullptr);   // no channels
  auto call = [&](ops::DwconvShape s) { ops::dwconv(q, s, a.data(), a.data(), a.data(), a.data()); };
  EXPECT_PORTKERN_ERROR(call({-1, 1, 4, 4, 1, 3, 1}), "shape.batch = -1");
  EXPECT_PORTKERN_ERROR(call({1, 1, 0, 4, 1, 3, 1}), "shape.height = 0");
  EXPECT_PORTKERN_ERROR(call({1, 1, 4, 4, 0, 3, 1}), "shape.multiplier = 0");
  EXPECT_PORTKERN_ERROR(call({1, 1, 4, 4, 1, 0, 1}), "shape.kernel = 0");
  EXPECT_PORTKERN_ERROR(call({1, 1, 4, 4, 1, 3, -1}), "shape.pad = -1");
  EXPECT_PORTKERN_ERROR(call({1, 1, 2, 9, 1, 5, 1}), "shape.kernel = 5");   // 2 + 2 < 5
  EXPECT_PORTKERN_ERROR(ops::dwconv(q, {1, 1, 4, 4, 1, 3, 1}, a.data(), nullptr, nullptr, a.data()), "weight");
}

}  // namespace
}  // namespace portkern::testing
