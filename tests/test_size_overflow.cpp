// Sizes whose products or sums do not fit in 64 bits are errors that name the quantity (not a wrapped value
// that passes the checks, then a crash or a huge allocation); memory that cannot be had is an error naming the
// bytes and what they were for; empty problems return at once.
#include <cstdint>
#include <limits>
#include <vector>

#include "conv2d_cases.hpp"
#include "portkern/checked.hpp"

namespace portkern {
namespace {

using testing::conv_desc;
constexpr std::int64_t big = std::int64_t(1) << 40;
constexpr std::int64_t max64 = std::numeric_limits<std::int64_t>::max();

TEST(SizeOverflow, CheckedArithmeticNamesTheQuantity) {
  EXPECT_EQ(checked_mul(3, -4, "f", "x"), -12);
  EXPECT_EQ(checked_add(max64 - 1, 1, "f", "x"), max64);
  EXPECT_PORTKERN_ERROR(checked_mul(big, big, "portkern::f", "rows * cols"),
                        "portkern::f: rows * cols = 1099511627776 * 1099511627776 does not fit in 64 bits");
  EXPECT_PORTKERN_ERROR(checked_add(max64, 1, "f", "in + pad"), "in + pad = 9223372036854775807 + 1 does not fit");
  EXPECT_EQ(checked_product({2, 3, 7}, "f", "x"), 42);
  EXPECT_EQ(checked_product({big, big, 0}, "f", "x"), 0);   // empty, whatever the other sizes
  EXPECT_PORTKERN_ERROR(checked_product({big, 1, big}, "f", "elements"), "elements = ");
  EXPECT_PORTKERN_ERROR(checked_bytes(max64 / 2, 4, "f", "count"), "bytes of count");
  EXPECT_EQ(checked_matrix_extent(3, 2, 5, 0, 1, "f", "a"), 8);        // column 1 ends at 5 + 3
  EXPECT_EQ(checked_matrix_extent(3, 2, 5, 20, 3, "f", "a"), 48);      // third problem at 40
  EXPECT_EQ(checked_matrix_extent(0, big, big, big, big, "f", "a"), 0);
  EXPECT_PORTKERN_ERROR(checked_matrix_extent(big, big, big, 0, 1, "f", "a"), "ld * (cols - 1) of a");
}

TEST(SizeOverflow, Conv2dDescriptors) {
  Queue q;
  std::vector<float> in(64, 1), f(64, 1), out(64, 1);
  auto call = [&](const Conv2dDesc& d) { conv2d(q, d, in.data(), f.data(), out.data()); };
  Conv2dDesc d = conv_desc(1, 6, 6, 2, 2, 3, 3, 1, 1, {0, 0, 0, 0});
  d.window_h = d.dilation_h = big;   // dilation * (window - 1) wrapped in 64 bits before
  EXPECT_PORTKERN_ERROR(conv2d_complete(d), "dilation_h * (window_h - 1) = 1099511627776 * 1099511627775 does not fit");
  EXPECT_PORTKERN_ERROR(call(d), "does not fit in 64 bits");
  EXPECT_PORTKERN_ERROR(with_padding(d, Padding::same), "does not fit in 64 bits");

  d = conv_desc(1, 6, 6, 2, 2, 3, 3, 1, 1, {0, 0, 0, 0});
  d.pad_top = max64;
  EXPECT_PORTKERN_ERROR(call(d), "in_h + pad_top = 6 + 9223372036854775807 does not fit");
  // Every field fits, a tensor does not.
  EXPECT_PORTKERN_ERROR(call(conv_desc(big, big, 1, 1, 1, 1, 1, 1, 1, {0, 0, 0, 0})),
                        "the input's elements (batch * in_h * in_w * in_c)");
  EXPECT_PORTKERN_ERROR(call(conv_desc(1, 6, 6, big, big, 3, 3, 1, 1, {0, 0, 0, 0})), "the filter's elements");
  EXPECT_PORTKERN_ERROR(call(conv_desc(big, 1, 1, 1, big, 1, 1, 1, 1, {0, 0, 0, 0})), "the output's elements");
  // Elements fit but bytes do not.
  EXPECT_PORTKERN_ERROR(call(conv_desc(1, 1, 1, std::int64_t(1) << 62, 1, 1, 1, 1, 1, {0, 0, 0, 0})),
                        "bytes of the input");
}

// Rows of a grouped convolution far outside the image (a stride of 2^60 and a padding of 2^61): grouped/default's
// runs of rows that share their window rows must not take rows with none inside, whose step in the input would
// overflow (UBSan, make sanitize); the row inside sums its group's 4 channels.
TEST(SizeOverflow, GroupedRowsFarOutsideTheImage) {
  Queue q;
  constexpr std::int64_t stride = std::int64_t(1) << 60, pad = std::int64_t(1) << 61;
  Conv2dDesc d = conv_desc(1, 1, 3, 8, 8, 1, 1, stride, 1, {pad, pad, 0, 0});
  d.groups = 2;
  const Conv2dDesc complete = conv2d_complete(d);
  ASSERT_EQ(complete.out_h, 5);
  std::vector<float> in(24, 1.f), f(32, 1.f), out(120, -7.f);
  conv2d(q, d, in.data(), f.data(), out.data(), {"grouped", "grouped/default"});
  for (std::size_t i = 0; i < out.size(); ++i) EXPECT_EQ(out[i], i / 24 == 2 ? 4.f : 0.f) << "output " << i;
}

TEST(SizeOverflow, Conv2dScratchThatCannotBeHadNamesItsPurpose) {
  // 3 x 2^33 input, 3x3 window: one im2col row is 9 * 2^33 floats, more than any machine here has.
  Queue q;
  std::vector<float> in(64, 1), f(64, 1), out(64, 1);
  const Conv2dDesc d = conv_desc(1, 3, std::int64_t(1) << 33, 1, 1, 3, 3, 1, 1, {0, 0, 0, 0});
  EXPECT_PORTKERN_ERROR(conv2d(q, d, in.data(), f.data(), out.data(), {"im2col", "im2col/whole"}),
                        "for conv2d scratch (im2col patches)");
  EXPECT_EQ(q.scratch_bytes(), 0u);
}

TEST(SizeOverflow, Pool2dDescriptors) {
  Queue q;
  std::vector<float> in(64, 1), out(64, 1);
  Pool2dDesc d;
  d.in_h = max64, d.in_w = 4, d.channels = 1, d.window_h = d.window_w = 2, d.stride_h = d.stride_w = 1;
  d.pad_top = 1;
  EXPECT_PORTKERN_ERROR(max_pool2d(q, d, in.data(), out.data()), "in_h + pad_top = 9223372036854775807 + 1");
  d.in_h = big, d.pad_top = 0, d.channels = big;
  EXPECT_PORTKERN_ERROR(avg_pool2d(q, d, in.data(), out.data()), "the input's elements");
}

TEST(SizeOverflow, GemmSizes) {
  Queue q;
  std::vector<float> a(64, 1), b(64, 1), c(64, 1);
  const std::int64_t two32 = std::int64_t(1) << 32;
  // m = k = 2^32: A spans lda * k = 2^64 elements.
  EXPECT_PORTKERN_ERROR(gemm<float>(q, Op::none, Op::none, two32, 1, two32, 1.f, a.data(), two32, b.data(), two32, 0.f,
                                    c.data(), two32),
                        "ld * (cols - 1) of a");
  // C: ldc * n.
  EXPECT_PORTKERN_ERROR(gemm<float>(q, Op::none, Op::none, 2, big, 1, 1.f, a.data(), 2, b.data(), 1, 0.f, c.data(), big),
                        "ld * (cols - 1) of c");
  EXPECT_PORTKERN_ERROR(gemm_strided_batched<float>(q, Op::none, Op::none, 2, big, 1, 1.f, a.data(), 2, 0, b.data(), 1, 0,
                                                    0.f, c.data(), big, 0, 2),
                        "ldc * n = 1099511627776 * 1099511627776 does not fit");
  // Batch strides.
  EXPECT_PORTKERN_ERROR(gemm_strided_batched<float>(q, Op::none, Op::none, 2, 2, 2, 1.f, a.data(), 2, max64 / 2, b.data(), 2,
                                                    0, 0.f, c.data(), 2, 4, 4),
                        "stride * (batch - 1) of a");
  // Elements fit, bytes do not.
  EXPECT_PORTKERN_ERROR(gemm<double>(q, Op::none, Op::none, std::int64_t(1) << 61, 1, 1, 1.0, nullptr, std::int64_t(1) << 61,
                                     nullptr, 1, 0.0, nullptr, std::int64_t(1) << 61),
                        "bytes of c");
  // Empty problems return at once, whatever the other sizes and pointers.
  gemm<float>(q, Op::none, Op::none, 0, max64, max64, 1.f, nullptr, 1, nullptr, max64, 0.f, nullptr, 1);
  gemm_strided_batched<float>(q, Op::none, Op::none, two32, two32, two32, 1.f, nullptr, two32, 0, nullptr, two32, 0, 0.f,
                              nullptr, two32, 0, 0);
}

TEST(SizeOverflow, TransposeAndOperators) {
  Queue q;
  std::vector<float> x(64, 1), y(64, 1);
  EXPECT_PORTKERN_ERROR(transpose(q, big, big, x.data(), big, y.data(), big), "ld * (cols - 1) of in");
  EXPECT_PORTKERN_ERROR(ops::concat(q, big, big, 1, big, x.data(), x.data(), y.data()),
                        "out (outer * (mid1 + mid2) * inner) = ");
  EXPECT_PORTKERN_ERROR(ops::concat(q, 1, max64, 1, 1, x.data(), x.data(), y.data()), "mid1 + mid2 = ");
  const std::int64_t shape[] = {big, big, 2};
  const int dims[] = {0};
  EXPECT_PORTKERN_ERROR(ops::flip(q, shape, dims, x.data(), y.data()), "the elements (the product of shape)");
  ops::DwconvShape s;
  s.batch = big, s.channels = big;
  EXPECT_PORTKERN_ERROR(ops::dwconv(q, s, x.data(), x.data(), nullptr, y.data()), "in (batch * channels * height * width)");
  std::vector<half> h(64);
  EXPECT_PORTKERN_ERROR(ops::gelu(q, big, big, 2, h.data(), h.data()), "src (batch * seq * hidden)");
  // Empty tensors return at once, whatever the other sizes and pointers.
  ops::gelu(q, 0, max64, 2, nullptr, nullptr);
  const std::int64_t empty[] = {big, big, 0};
  ops::flip(q, empty, dims, static_cast<const float*>(nullptr), static_cast<float*>(nullptr));
}

TEST(SizeOverflow, BuffersAndAllocations) {
  EXPECT_PORTKERN_ERROR(Buffer<double>(Device::cpu(), max64 / 4), "bytes of count");
  EXPECT_PORTKERN_ERROR(Buffer<float>(Device::cpu(), std::int64_t(1) << 50, "the test's tensor"),
                        "cannot allocate 4503599627370496 bytes on cpu for the test's tensor");
  EXPECT_PORTKERN_ERROR(allocate(Device::cpu(), std::size_t(-1), "nothing"), "for nothing");
}

}  // namespace
}  // namespace portkern
