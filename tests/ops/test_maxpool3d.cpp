// maxpool3d against its reference: window = stride = 2 on the vector path (Win % 8 == 0, odd Hin) and the
// scalar path (odd and small sizes, a misaligned pointer), other windows and strides, inputs of both signs
// (a running max from 0 would fail), NaN and -infinity (torch's rule: NaN propagates), rows of several
// images in one group (Hout < 8), empty stacks and bad arguments. Exact (a max is exact); NaN matches NaN.
#include <limits>

#include "op_testing.hpp"
#include "ops/maxpool3d/reference.hpp"
#include "portkern/ops/maxpool3d.hpp"

namespace portkern::testing {
namespace {

void check_pool(const Device& device, std::int64_t z, std::int64_t h, std::int64_t w, std::int64_t window,
                std::int64_t stride, bool specials = false, std::int64_t misalign = 0) {
  Queue q(device);
  const std::int64_t numel = z * h * w;
  auto host = random_vector<float>(std::size_t(numel + misalign), unsigned(numel));
  if (specials)   // sprinkle NaN and -inf; some windows all -inf
    for (std::size_t i = 0; i < host.size(); i += 37) host[i] = i % 3 ? -INFINITY : std::numeric_limits<float>::quiet_NaN();
  const std::int64_t h_out = ops::maxpool3d_output_extent(h, window, stride);
  const std::int64_t w_out = ops::maxpool3d_output_extent(w, window, stride);
  auto in = to_device(q, host);
  auto out = poisoned<float>(q, z * h_out * w_out + misalign, 12345.f);
  ops::maxpool3d(q, z, h, w, window, stride, in.data() + misalign, out.data() + misalign);
  auto got = out.download(q);
  got.erase(got.begin(), got.begin() + misalign);
  got.resize(std::size_t(z * h_out * w_out));
  const std::vector<float> body(host.begin() + misalign, host.end());
  const auto want = ops::maxpool3d_impl::reference(z, h, w, window, stride, body);
  EXPECT_TRUE(all_close(got, want, 0.0)) << z << "x" << h << "x" << w << " window " << window << " stride " << stride;
}

PORTKERN_OP_TEST(Maxpool3d, Window2Stride2) {
  check_pool(device, 3, 16, 64, 2, 2);     // vector path
  check_pool(device, 2, 9, 24, 2, 2);      // vector path, odd Hin
  check_pool(device, 1, 6, 2056, 2, 2);    // vector path, more than one column chunk
  check_pool(device, 5, 3, 8, 2, 2);       // Hout = 1: one group spans images
  check_pool(device, 3, 7, 13, 2, 2);      // scalar path
  check_pool(device, 2, 2, 2, 2, 2);
  check_pool(device, 2, 10, 600, 2, 2);    // scalar path (600 % 8 != 0), several column chunks
  check_pool(device, 2, 8, 32, 2, 2, false, 1);   // misaligned: scalar path
}

PORTKERN_OP_TEST(Maxpool3d, OtherWindowsAndStrides) {
  check_pool(device, 2, 11, 17, 3, 2);
  check_pool(device, 3, 9, 10, 3, 3);
  check_pool(device, 1, 5, 37, 2, 1);
  check_pool(device, 2, 4, 5, 1, 1);
  check_pool(device, 1, 12, 12, 4, 5);
  check_pool(device, 2, 5, 7, 5, 2);       // window = Hin: one output row
}

// Every row width from 1 to past four of the CPU's 16-output steps, and some across CUDA's 256- and 512-output
// steps, for the unrolled windows (2/2, 3/2) and the plan's (2/1, 4/3): rows shorter than a step (checked), a
// whole number of steps, a step and a few outputs (the last step shifted back), in groups of several rows.
PORTKERN_OP_TEST(Maxpool3d, EveryRowWidth) {
  const std::int64_t wide[] = {127, 128, 129, 255, 256, 257, 300, 513};
  for (const auto [window, stride] : {std::pair{2, 2}, {3, 2}, {2, 1}, {4, 3}}) {
    for (std::int64_t w_out = 1; w_out <= 70; ++w_out)
      check_pool(device, 2, window + stride * 2 + w_out % 2, (w_out - 1) * stride + window + w_out % stride, window,
                 stride);
    for (const std::int64_t w_out : wide)
      check_pool(device, 1, window + 9, (w_out - 1) * stride + window, window, stride);
  }
}

PORTKERN_OP_TEST(Maxpool3d, NanPropagatesAndNegativeInfinityIsKept) {
  check_pool(device, 3, 16, 64, 2, 2, true);
  check_pool(device, 2, 9, 15, 2, 2, true);
  check_pool(device, 2, 9, 15, 3, 2, true);
  // all -inf stays -inf (a running max from 0 would give 0)
  Queue q(device);
  auto in = to_device(q, std::vector<float>(16, -INFINITY));
  auto out = poisoned<float>(q, 4, 0.f);
  ops::maxpool3d(q, 1, 4, 4, 2, 2, in.data(), out.data());
  EXPECT_TRUE(all_equal(out.download(q), std::vector<float>(4, -INFINITY)));
}

PORTKERN_OP_TEST(Maxpool3d, EmptyStackReturnsAtOnce) {
  Queue q(device);
  ops::maxpool3d(q, 0, 4, 4, 2, 2, static_cast<const float*>(nullptr), static_cast<float*>(nullptr));
}

PORTKERN_OP_TEST(Maxpool3d, BadArgumentsAreErrors) {
  Queue q(device);
  Buffer<float> in(device, 64), out(device, 64);
  EXPECT_PORTKERN_ERROR(ops::maxpool3d(q, -1, 4, 4, 2, 2, in.data(), out.data()), "z = -1");
  EXPECT_PORTKERN_ERROR(ops::maxpool3d(q, 1, 4, 4, 0, 2, in.data(), out.data()), "window = 0");
  EXPECT_PORTKERN_ERROR(ops::maxpool3d(q, 1, 4, 4, 2, 0, in.data(), out.data()), "stride = 0");
  EXPECT_PORTKERN_ERROR(ops::maxpool3d(q, 1, 1, 4, 2, 2, in.data(), out.data()), "h_in = 1");
  EXPECT_PORTKERN_ERROR(ops::maxpool3d(q, 1, 4, 3, 4, 2, in.data(), out.data()), "w_in = 3");
  EXPECT_PORTKERN_ERROR(ops::maxpool3d(q, 1, 4, 4, 2, 2, in.data(), static_cast<float*>(nullptr)), "out");
}

}  // namespace
}  // namespace portkern::testing
