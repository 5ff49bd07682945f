// The descriptor's checks and derived sizes (conv2d_complete, with_padding): every error names the field,
// its value and the requirement. Every sum and product of fields is checked for 64-bit overflow, and so are
// the element counts of the input, filter and output, so that no kernel index can overflow.
#include <algorithm>
#include <string>

#include "portkern/checked.hpp"
#include "portkern/dnn.hpp"
#include "portkern/error.hpp"

namespace portkern {

namespace {
constexpr const char* fn = "portkern::conv2d";

// dilation * (window - 1) + 1: the input rows (columns) one window covers.
std::int64_t window_span(const std::string& h, std::int64_t window, std::int64_t dilation) {
  const std::string what = "dilation_" + h + " * (window_" + h + " - 1)";
  return checked_add(checked_mul(dilation, window - 1, fn, what), 1, fn, what + " + 1");
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
  const std::int64_t span = window_span(h, window, dilation);
  const std::int64_t padded = checked_add(checked_add(in, pad_before, fn, "in_" + h + " + " + before), pad_after, fn,
                                          "in_" + h + " + " + before + " + " + after);
  require(span <= padded, fn, "desc.window_" + h, window,
          "such that dilation_" + h + "*(window_" + h + "-1) + 1 = " + std::to_string(span) + " <= in_" + h + " + " +
              before + " + " + after + " = " + std::to_string(padded) + " (the window must fit the padded input)");
  const std::int64_t expected = (padded - span) / stride + 1;   // span <= padded: no overflow
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
  require(d.groups >= 1, fn, "desc.groups", d.groups, ">= 1");
  require(d.in_c % d.groups == 0, fn, "desc.in_c", d.in_c, "a multiple of desc.groups = " + std::to_string(d.groups));
  require(d.out_c % d.groups == 0, fn, "desc.out_c", d.out_c, "a multiple of desc.groups = " + std::to_string(d.groups));
  check_axis("h", d.in_h, d.pad_top, d.pad_bottom, d.window_h, d.stride_h, d.dilation_h, d.out_h);
  check_axis("w", d.in_w, d.pad_left, d.pad_right, d.window_w, d.stride_w, d.dilation_w, d.out_w);
  // Bytes of each tensor fit in 64 bits (the kernels index them with int64).
  checked_bytes(checked_product({d.batch, d.in_h, d.in_w, d.in_c}, fn, "the input's elements (batch * in_h * in_w * in_c)"),
                sizeof(float), fn, "the input");
  checked_bytes(checked_product({d.window_h, d.window_w, d.in_c / d.groups, d.out_c}, fn,
                                "the filter's elements (window_h * window_w * in_c / groups * out_c)"),
                sizeof(float), fn, "the filter");
  checked_bytes(checked_product({d.batch, d.out_h, d.out_w, d.out_c}, fn, "the output's elements (batch * out_h * out_w * out_c)"),
                sizeof(float), fn, "the output");
  return d;
}

Conv2dDesc with_padding(Conv2dDesc d, Padding padding) {
  d.out_h = d.out_w = 0;
  d.pad_top = d.pad_bottom = d.pad_left = d.pad_right = 0;
  if (padding == Padding::valid) return d;
  auto same = [](const std::string& h, std::int64_t in, std::int64_t window, std::int64_t stride, std::int64_t dilation,
                 std::int64_t& before, std::int64_t& after) {
    if (stride < 1 || in < 1 || window < 1 || dilation < 1) return;   // conv2d_complete reports it
    const std::int64_t out = (in - 1) / stride + 1;   // ceil(in / stride) without overflow
    const std::int64_t total = std::max<std::int64_t>(
        0, checked_add(checked_mul(out - 1, stride, fn, "(out_" + h + " - 1) * stride_" + h), window_span(h, window, dilation) - in,
                       fn, "SAME padding of axis " + h));
    before = total / 2;
    after = total - before;
  };
  same("h", d.in_h, d.window_h, d.stride_h, d.dilation_h, d.pad_top, d.pad_bottom);
  same("w", d.in_w, d.window_w, d.stride_w, d.dilation_w, d.pad_left, d.pad_right);
  return d;
}

}  // namespace portkern
