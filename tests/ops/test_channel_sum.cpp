// channel_sum against its exact reference, both outputs: both layouts, C below, at and above 32 and 512 (and
// not a multiple of them), HW of 1 and primes, HW % 4 == 0 (the NCHW vector path) over several segments, a
// misaligned input (scalar fallback), magnitudes whose sums overflow int32 (the HeCBench flaw), extreme
// values whose squares wrap int64 (defined: modulo 2^64, as torch), empty batches and bad arguments.
#include <random>

#include "op_testing.hpp"
#include "ops/channel_sum/reference.hpp"
#include "portkern/ops/channel_sum.hpp"

namespace portkern::testing {
namespace {

// Uniform in [-limit, limit] without 0.
std::vector<std::int32_t> random_ints(std::size_t count, std::int64_t limit, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<std::int64_t> value(-limit, limit);
  std::vector<std::int32_t> v(count);
  for (auto& x : v) {
    std::int64_t r = 0;
    while (r == 0) r = value(rng);
    x = std::int32_t(r);
  }
  return v;
}

void check_sum(const Device& device, bool nhwc, std::int64_t n, std::int64_t c, std::int64_t hw, std::int64_t limit,
               std::int64_t misalign = 0) {
  Queue q(device);
  const std::int64_t numel = n * c * hw;
  const auto host = random_ints(std::size_t(numel + misalign), limit, unsigned(numel + c));
  auto in = to_device(q, host);
  auto sum = poisoned<std::int64_t>(q, c, -777), sumsq = poisoned<std::int64_t>(q, c, -777);
  const std::int32_t* x = in.data() + misalign;
  if (nhwc) ops::channel_sum_nhwc(q, n, c, hw, x, sum.data(), sumsq.data());
  else ops::channel_sum_nchw(q, n, c, hw, x, sum.data(), sumsq.data());
  auto got_sum = sum.download(q), got_sq = sumsq.download(q);
  std::vector<std::int64_t> want_sum, want_sq;
  ops::channel_sum_impl::reference(nhwc, n, c, hw, std::vector<std::int32_t>(host.begin() + misalign, host.end()),
                                   want_sum, want_sq);
  const auto what = std::string(nhwc ? "NHWC " : "NCHW ") + std::to_string(n) + "x" + std::to_string(c) + "x" +
                    std::to_string(hw) + " limit " + std::to_string(limit);
  EXPECT_TRUE(all_equal(got_sum, want_sum)) << what << " sum";
  EXPECT_TRUE(all_equal(got_sq, want_sq)) << what << " sumsq";
}

const std::vector<std::vector<std::int64_t>> shapes = {
    {1, 1, 1},  {3, 5, 1}, {2, 3, 7},  {1, 3, 5000}, {2, 4, 4100}, {1, 32, 64}, {2, 35, 13},
    {3, 70, 999}, {1, 7, 1031}, {4, 1, 257}, {1, 100, 1}, {2, 33, 300},
    // the CPU's 512-channel NHWC tiles (whole, partial, several; C dividing 512 or not) and its NCHW passes of
    // 1024 (whole passes, a partial last one, a segment shorter than a pass)
    {2, 128, 77}, {1, 130, 50}, {3, 48, 101}, {1, 64, 300}, {1, 512, 20}, {2, 513, 9}, {1, 1100, 7},
    {3, 200, 33}, {1, 2, 1024}, {3, 2, 2048}, {1, 1, 1023}, {2, 3, 4097}};

PORTKERN_OP_TEST(ChannelSum, NchwMatchesReference) {
  for (const auto& s : shapes) check_sum(device, false, s[0], s[1], s[2], 1000);
  check_sum(device, false, 2, 4, 4100, 255, 1);   // misaligned: scalar path
}

PORTKERN_OP_TEST(ChannelSum, NhwcMatchesReference) {
  for (const auto& s : shapes) check_sum(device, true, s[0], s[1], s[2], 1000);
  check_sum(device, true, 2, 5, 333, 255, 3);
}

PORTKERN_OP_TEST(ChannelSum, SumsBeyondInt32AreExact) {
  // |x| up to 2^24: sums reach ~1e10, squares ~1e17 (int32 overflows, int64 does not).
  check_sum(device, false, 2, 3, 1500, std::int64_t(1) << 24);
  check_sum(device, true, 2, 3, 1500, std::int64_t(1) << 24);
  // |x| up to 2^31 - 1: squares wrap int64; the result is defined modulo 2^64 (like torch).
  check_sum(device, false, 1, 2, 4100, 2147483647);
  check_sum(device, true, 3, 40, 50, 2147483647);
}

PORTKERN_OP_TEST(ChannelSum, EmptyInputsZeroTheOutputs) {
  Queue q(device);
  auto sum = poisoned<std::int64_t>(q, 5, -777), sumsq = poisoned<std::int64_t>(q, 5, -777);
  ops::channel_sum_nchw(q, 0, 5, 9, static_cast<const std::int32_t*>(nullptr), sum.data(), sumsq.data());
  EXPECT_TRUE(all_equal(sum.download(q), std::vector<std::int64_t>(5, 0)));
  EXPECT_TRUE(all_equal(sumsq.download(q), std::vector<std::int64_t>(5, 0)));
  ops::channel_sum_nhwc(q, 2, 0, 9, static_cast<const std::int32_t*>(nullptr), static_cast<std::int64_t*>(nullptr),
                        static_cast<std::int64_t*>(nullptr));
}

PORTKERN_OP_TEST(ChannelSum, BadArgumentsAreErrors) {
  Queue q(device);
  Buffer<std::int32_t> in(device, 64);
  Buffer<std::int64_t> sum(device, 8), sumsq(device, 8);
  EXPECT_PORTKERN_ERROR(ops::channel_sum_nchw(q, -1, 2, 4, in.data(), sum.data(), sumsq.data()), "n = -1");
  EXPECT_PORTKERN_ERROR(ops::channel_sum_nhwc(q, 1, -2, 4, in.data(), sum.data(), sumsq.data()), "c = -2");
  EXPECT_PORTKERN_ERROR(ops::channel_sum_nhwc(q, 1, 2, -4, in.data(), sum.data(), sumsq.data()), "hw = -4");
  EXPECT_PORTKERN_ERROR(ops::channel_sum_nchw(q, 1, 2, 4, static_cast<const std::int32_t*>(nullptr), sum.data(),
                                              sumsq.data()),
                        "in");
  EXPECT_PORTKERN_ERROR(ops::channel_sum_nchw(q, 1, 2, 4, in.data(), sum.data(), sum.data()), "sumsq");
}

}  // namespace
}  // namespace portkern::testing
