// The descriptor's checks and derived sizes (conv2d_complete, with_padding): every error names the field,
// its value and the requirement.
#include <algorithm>
#include <string>

#include "portkern/dnn.hpp"
#include "portkern/error.hpp"

namespace portkern {

namespace {
constexpr const char* fn = "portkern::conv2d";

std::int64_t output_size(std::int64_t in, std::int64_t pad, std::int64_t dilation, std::int64_t window,
                         std::int64_t stride) {
  return (in + pad - dilation * (window - 1) - 1) / stride + 1;
}

void check_axis(const char* axis, std::int64_t in, std::int64_t pad_before, std::int64_t pad_after,
                std::int64_t window, std::int64_t stride, std::int64_t dilation, std::int64_t& out) {
  const std::string h = axis;   // "h" or "w"
  const std::string before = h == "h" ? "pad_top" : "pad_left", after = h == "h" ? "pad_bottom" : "pad_right";
  require(in >= 1, fn, "desc.in_" + h, in, ">= 1");
  require(window >= 1, fn, "desc.window_" + h, window, ">= 1");
  require(stride >= 1, fn, "desc.stride_" + h, stride, ">= 1");
  require(dilation >= 1, fn, "desc.dilation_" + h, dilation, ">= 1");
  require(pad_before >= 0, fn, "desc." + before, pad_before, ">= 0");
  require(pad_after >= 0, fn, "desc." + after, pad_after, ">= 0");
  const std::int64_t span = dilation * (window - 1) + 1, padded = in + pad_before + pad_after;
  require(span <= padded, fn, "desc.window_" + h, window,
          "such that dilation_" + h + "*(window_" + h + "-1) + 1 = " + std::to_string(span) + " <= in_" + h + " + " +
              before + " + " + after + " = " + std::to_string(padded) + " (the window must fit the padded input)");
  const std::int64_t expected = output_size(in, pad_before + pad_after, dilation, window, stride);
  if (out == 0) out = expected;
  require(out == expected, fn, "desc.out_" + h, out,
          "(in_" + h + " + " + before + " + " + after + " - dilation_" + h + "*(window_" + h + "-1) - 1)/stride_" + h +
              " + 1 = " + std::to_string(expected));
}
}  // namespace

Conv2dDesc conv2d_complete(const Conv2dDesc& desc) {
  Conv2dDesc d = desc;
  require(d.batch >= 1, fn, "desc.batch", d.batch, ">= 1");
  require(d.in_c >= 1, fn, "desc.in_c", d.in_c, ">= 1");
  require(d.out_c >= 1, fn, "desc.out_c", d.out_c, ">= 1");
  check_axis("h", d.in_h, d.pad_top, d.pad_bottom, d.window_h, d.stride_h, d.dilation_h, d.out_h);
  check_axis("w", d.in_w, d.pad_left, d.pad_right, d.window_w, d.stride_w, d.dilation_w, d.out_w);
  return d;
}

Conv2dDesc with_padding(Conv2dDesc d, Padding padding) {
  d.out_h = d.out_w = 0;
  d.pad_top = d.pad_bottom = d.pad_left = d.pad_right = 0;
  if (padding == Padding::valid) return d;
  auto same = [](std::int64_t in, std::int64_t window, std::int64_t stride, std::int64_t dilation,
                 std::int64_t& before, std::int64_t& after) {
    if (stride < 1 || in < 1) return;   // conv2d_complete reports it
    const std::int64_t out = (in + stride - 1) / stride, span = dilation * (window - 1) + 1;
    const std::int64_t total = std::max<std::int64_t>(0, (out - 1) * stride + span - in);
    before = total / 2;
    after = total - before;
  };
  same(d.in_h, d.window_h, d.stride_h, d.dilation_h, d.pad_top, d.pad_bottom);
  same(d.in_w, d.window_w, d.stride_w, d.dilation_w, d.pad_left, d.pad_right);
  return d;
}

}  // namespace portkern
