// portkern::max_pool2d / avg_pool2d: the descriptor's checks, then one kernel-model launch.
#include <string>

#include "conv2d/backends.hpp"
#include "conv2d/pool.hpp"
#include "portkern/checked.hpp"
#include "portkern/dnn.hpp"
#include "portkern/error.hpp"

namespace portkern {

namespace {
constexpr const char* fn = "portkern::pool2d";

void check_axis(const std::string& h, std::int64_t in, std::int64_t before, std::int64_t after, std::int64_t window,
                std::int64_t stride, std::int64_t& out) {
  const std::string b = h == "h" ? "pad_top" : "pad_left", e = h == "h" ? "pad_bottom" : "pad_right";
  require(in >= 1, fn, "desc.in_" + h, in, ">= 1");
  require(window >= 1, fn, "desc.window_" + h, window, ">= 1");
  require(stride >= 1, fn, "desc.stride_" + h, stride, ">= 1");
  require(before >= 0 && before < window, fn, "desc." + b, before,
          ">= 0 and < window_" + h + " = " + std::to_string(window));
  require(after >= 0 && after < window, fn, "desc." + e, after, ">= 0 and < window_" + h + " = " + std::to_string(window));
  const std::int64_t padded =
      checked_add(checked_add(in, before, fn, "in_" + h + " + " + b), after, fn, "in_" + h + " + " + b + " + " + e);
  require(window <= padded, fn, "desc.window_" + h, window, "<= in_" + h + " + " + b + " + " + e + " = " + std::to_string(padded));
  const std::int64_t expected = (padded - window) / stride + 1;
  if (out == 0) out = expected;
  require(out == expected, fn, "desc.out_" + h, out,
          "(in_" + h + " + " + b + " + " + e + " - window_" + h + ")/stride_" + h + " + 1 = " + std::to_string(expected));
}

template <bool Max>
void pool(Queue& q, const Pool2dDesc& desc, const float* input, float* output) {
  const Pool2dDesc d = pool2d_complete(desc);
  q.check_pointer(input, fn, "input");
  q.check_pointer(output, fn, "output");
  conv2d_impl::launch(q, conv2d_impl::Pool2d<Max>{{d.batch, d.in_h, d.in_w, d.channels, d.window_h, d.window_w,
                                                   d.stride_h, d.stride_w, d.pad_top, d.pad_left, d.out_h, d.out_w,
                                                   input, output}});
}
}  // namespace

Pool2dDesc pool2d_complete(const Pool2dDesc& desc) {
  Pool2dDesc d = desc;
  require(d.batch >= 1, fn, "desc.batch", d.batch, ">= 1");
  require(d.channels >= 1, fn, "desc.channels", d.channels, ">= 1");
  check_axis("h", d.in_h, d.pad_top, d.pad_bottom, d.window_h, d.stride_h, d.out_h);
  check_axis("w", d.in_w, d.pad_left, d.pad_right, d.window_w, d.stride_w, d.out_w);
  checked_bytes(checked_product({d.batch, d.in_h, d.in_w, d.channels}, fn, "the input's elements (batch * in_h * in_w * channels)"),
                sizeof(float), fn, "the input");
  checked_bytes(checked_product({d.batch, d.out_h, d.out_w, d.channels}, fn, "the output's elements (batch * out_h * out_w * channels)"),
                sizeof(float), fn, "the output");
  return d;
}

void max_pool2d(Queue& queue, const Pool2dDesc& desc, const float* input, float* output) {
  pool<true>(queue, desc, input, output);
}
void avg_pool2d(Queue& queue, const Pool2dDesc& desc, const float* input, float* output) {
  pool<false>(queue, desc, input, output);
}

}  // namespace portkern
