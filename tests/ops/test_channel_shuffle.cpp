// channel_shuffle against its reference: both layouts, groups in {1, 2, 3, 5, C}, C below and above 32 (and
// not a multiple of it), HW of 1, primes, multiples of 4 (the NCHW vector path) over more than one chunk,
// a misaligned pointer (the scalar fallback), empty tensors and bad arguments. A permutation: exact.
#include "op_testing.hpp"
#include "ops/channel_shuffle/reference.hpp"
#include "portkern/ops/channel_shuffle.hpp"

namespace portkern::testing {
namespace {

void check_shuffle(const Device& device, bool nhwc, std::int64_t n, std::int64_t c, std::int64_t hw,
                   std::int64_t groups, std::int64_t misalign = 0) {
  Queue q(device);
  const std::int64_t numel = n * c * hw;
  const auto host = random_vector<float>(std::size_t(numel + misalign), 11);
  auto in = to_device(q, host);
  auto out = poisoned<float>(q, numel + misalign, poison<float>);
  if (nhwc) ops::channel_shuffle_nhwc(q, n, c, hw, groups, in.data() + misalign, out.data() + misalign);
  else ops::channel_shuffle_nchw(q, n, c, hw, groups, in.data() + misalign, out.data() + misalign);
  auto got = out.download(q);
  got.erase(got.begin(), got.begin() + misalign);
  got.resize(std::size_t(numel));
  const std::vector<float> body(host.begin() + misalign, host.end());
  EXPECT_TRUE(all_equal(got, ops::channel_shuffle_impl::reference(nhwc, n, c, hw, groups, body)))
      << (nhwc ? "NHWC " : "NCHW ") << n << "x" << c << "x" << hw << " groups " << groups << " misalign " << misalign;
}

const std::vector<std::vector<std::int64_t>> shapes = {
    // n, c, hw, groups
    {1, 1, 1, 1},   {1, 2, 1, 2},    {3, 6, 7, 2},   {2, 6, 13, 3},  {1, 35, 5, 5},    {2, 35, 5, 35},
    {1, 12, 64, 4}, {2, 64, 3, 2},   {1, 96, 9, 3},  {1, 70, 4, 7},  {2, 4, 4100, 2},  {1, 3, 1031, 3},
    {1, 1030, 3, 5}, {3, 2, 333, 1}, {1, 33, 17, 11},
    // whole chunks and groups only (NCHW: planes of 4096 and 8192; NHWC: 64 and 256 pixels of C = 32, 8),
    // and a whole chunk followed by a partial one
    {2, 4, 4096, 2}, {1, 2, 8192, 2}, {1, 32, 64, 4}, {2, 8, 128, 2}, {1, 6, 4096 + 17, 3},
    // NHWC with C >= 256 (the CPU's pixel-at-a-time form): C = 256 over two whole groups of 64 pixels and a
    // partial one, C not a multiple of 32 or of 256
    {2, 256, 70, 4}, {1, 300, 67, 3}, {1, 520, 9, 2},
    // NHWC with groups 2 and 4 and k >= 64 (the CPU's interleaving form): k = 64, 65 (odd), 300 (two phases
    // a pixel), and more pixels than a group's 16
    {1, 128, 21, 2}, {2, 130, 5, 2}, {1, 260, 3, 4}, {1, 600, 2, 2},
    // NCHW planes longer than the CPU's span of 65536 floats: a second span of one whole phase and a tail
    {1, 2, 65536 + 2048 + 5, 2}};

PORTKERN_OP_TEST(ChannelShuffle, NchwMatchesReference) {
  for (const auto& s : shapes) check_shuffle(device, false, s[0], s[1], s[2], s[3]);
  check_shuffle(device, false, 2, 4, 4100, 2, 1);   // hw % 4 == 0 but not 16-byte aligned: scalar path
}

PORTKERN_OP_TEST(ChannelShuffle, NhwcMatchesReference) {
  for (const auto& s : shapes) check_shuffle(device, true, s[0], s[1], s[2], s[3]);
  check_shuffle(device, true, 3, 40, 37, 4, 3);
}

PORTKERN_OP_TEST(ChannelShuffle, EmptyTensorsReturnAtOnce) {
  Queue q(device);
  const float* in = nullptr;
  float* out = nullptr;
  ops::channel_shuffle_nchw(q, 0, 4, 9, 2, in, out);
  ops::channel_shuffle_nhwc(q, 2, 4, 0, 2, in, out);
  ops::channel_shuffle_nhwc(q, 2, 0, 5, 3, in, out);
}

PORTKERN_OP_TEST(ChannelShuffle, BadArgumentsAreErrors) {
  Queue q(device);
  Buffer<float> in(device, 64), out(device, 64);
  EXPECT_PORTKERN_ERROR(ops::channel_shuffle_nchw(q, 1, 6, 4, 4, in.data(), out.data()), "c = 6");
  EXPECT_PORTKERN_ERROR(ops::channel_shuffle_nhwc(q, 1, 6, 4, 0, in.data(), out.data()), "groups = 0");
  EXPECT_PORTKERN_ERROR(ops::channel_shuffle_nhwc(q, -1, 6, 4, 2, in.data(), out.data()), "n = -1");
  EXPECT_PORTKERN_ERROR(ops::channel_shuffle_nchw(q, 1, 6, -4, 2, in.data(), out.data()), "hw = -4");
  EXPECT_PORTKERN_ERROR(ops::channel_shuffle_nchw(q, 1, 6, 4, 2, static_cast<const float*>(nullptr), out.data()),
                        "in");
}

}  // namespace
}  // namespace portkern::testing
