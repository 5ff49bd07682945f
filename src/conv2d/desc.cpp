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

// The names of one axis's fields, as literals: conv2d_complete runs on every call, and building its messages
// up front (string concatenations and allocations) took about a microsecond a call, a third of a small
// depthwise layer's time on the CPU. Messages are built only when a check fails.
struct AxisNames {
  const char *in, *window, *stride, *dilation, *out, *before, *after;   // desc.<field>
  const char *span, *span_plus_one, *padded_before, *padded;             // the sums the checks form
  char h;
};
constexpr AxisNames axis_h{"desc.in_h", "desc.window_h", "desc.stride_h", "desc.dilation_h", "desc.out_h",
                           "desc.pad_top", "desc.pad_bottom", "dilation_h * (window_h - 1)",
                           "dilation_h * (window_h - 1) + 1", "in_h + pad_top", "in_h + pad_top + pad_bottom", 'h'};
constexpr AxisNames axis_w{"desc.in_w", "desc.window_w", "desc.stride_w", "desc.dilation_w", "desc.out_w",
                           "desc.pad_left", "desc.pad_right", "dilation_w * (window_w - 1)",
                           "dilation_w * (window_w - 1) + 1", "in_w + pad_left", "in_w + pad_left + pad_right", 'w'};

// dilation * (window - 1) + 1: the input rows (columns) one window covers.
std::int64_t window_span(const AxisNames& n, std::int64_t window, std::int64_t dilation) {
  return checked_add(checked_mul(dilation, window - 1, fn, n.span), 1, fn, n.span_plus_one);
}

void check_axis(const AxisNames& n, std::int64_t in, std::int64_t pad_before, std::int64_t pad_after,
                std::int64_t window, std::int64_t stride, std::int64_t dilation, std::int64_t& out) {
  require(in >= 1, fn, n.in, in, ">= 1");
  require(window >= 1, fn, n.window, window, ">= 1");
  require(stride >= 1, fn, n.stride, stride, ">= 1");
  require(dilation >= 1, fn, n.dilation, dilation, ">= 1");
  require(pad_before >= 0, fn, n.before, pad_before, ">= 0");
  require(pad_after >= 0, fn, n.after, pad_after, ">= 0");
  const std::int64_t span = window_span(n, window, dilation);
  const std::int64_t padded = checked_add(checked_add(in, pad_before, fn, n.padded_before), pad_after, fn, n.padded);
  const std::string h(1, n.h), before = n.before + 5, after = n.after + 5;   // without "desc."
  if (span > padded)
    require(false, fn, n.window, window,
            "such that dilation_" + h + "*(window_" + h + "-1) + 1 = " + std::to_string(span) + " <= in_" + h + " + " +
                before + " + " + after + " = " + std::to_string(padded) + " (the window must fit the padded input)");
  const std::int64_t expected = (padded - span) / stride + 1;   // span <= padded: no overflow
  if (out == 0) out = expected;
  if (out != expected)
    require(false, fn, n.out, out,
            "(in_" + h + " + " + before + " + " + after + " - dilation_" + h + "*(window_" + h + "-1) - 1)/stride_" +
                h + " + 1 = " + std::to_string(expected));
}
}  // namespace

Conv2dDesc conv2d_complete(const Conv2dDesc& desc) {
  Conv2dDesc d = desc;
  require(d.batch >= 1, fn, "desc.batch", d.batch, ">= 1");
  require(d.in_c >= 1, fn, "desc.in_c", d.in_c, ">= 1");
  require(d.out_c >= 1, fn, "desc.out_c", d.out_c, ">= 1");
  require(d.groups >= 1, fn, "desc.groups", d.groups, ">= 1");
  if (d.in_c % d.groups != 0)
    require(false, fn, "desc.in_c", d.in_c, "a multiple of desc.groups = " + std::to_string(d.groups));
  if (d.out_c % d.groups != 0)
    require(false, fn, "desc.out_c", d.out_c, "a multiple of desc.groups = " + std::to_string(d.groups));
  check_axis(axis_h, d.in_h, d.pad_top, d.pad_bottom, d.window_h, d.stride_h, d.dilation_h, d.out_h);
  check_axis(axis_w, d.in_w, d.pad_left, d.pad_right, d.window_w, d.stride_w, d.dilation_w, d.out_w);
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
  auto same = [](const AxisNames& n, std::int64_t in, std::int64_t window, std::int64_t stride, std::int64_t dilation,
                 std::int64_t& before, std::int64_t& after) {
    if (stride < 1 || in < 1 || window < 1 || dilation < 1) return;   // conv2d_complete reports it
    const std::int64_t out = (in - 1) / stride + 1;   // ceil(in / stride) without overflow
    const std::string h(1, n.h);
    const std::int64_t total = std::max<std::int64_t>(
        0, checked_add(checked_mul(out - 1, stride, fn, "(out_" + h + " - 1) * stride_" + h), window_span(n, window, dilation) - in,
                       fn, "SAME padding of axis " + h));
    before = total / 2;
    after = total - before;
  };
  same(axis_h, d.in_h, d.window_h, d.stride_h, d.dilation_h, d.pad_top, d.pad_bottom);
  same(axis_w, d.in_w, d.window_w, d.stride_w, d.dilation_w, d.pad_left, d.pad_right);
  return d;
}

}  // namespace portkern
