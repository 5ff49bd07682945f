#include <string>

#include "ops/dwconv/backends.hpp"
#include "ops/dwconv/kernel.hpp"
#include "portkern/checked.hpp"
#include "portkern/error.hpp"
#include "portkern/kernel/cpu.hpp"
#include "portkern/ops/dwconv.hpp"

namespace portkern::ops {

namespace dwconv_impl {
void portable_cpu(Queue& queue, const DwconvShape& s, const float* in, const float* weight, const float* bias,
                  float* out) {
  run<kernel::cpu::Backend>(queue, s, in, weight, bias, out);
}
}  // namespace dwconv_impl

void dwconv(Queue& queue, const DwconvShape& s, const float* in, const float* weight, const float* bias,
            float* out) {
  const char* function = "portkern::ops::dwconv";
  require(s.batch >= 0, function, "shape.batch", s.batch, ">= 0");
  require(s.channels >= 0, function, "shape.channels", s.channels, ">= 0");
  require(s.height >= 1, function, "shape.height", s.height, ">= 1");
  require(s.width >= 1, function, "shape.width", s.width, ">= 1");
  require(s.multiplier >= 1, function, "shape.multiplier", s.multiplier, ">= 1");
  require(s.kernel >= 1, function, "shape.kernel", s.kernel, ">= 1");
  require(s.pad >= 0, function, "shape.pad", s.pad, ">= 0");
  const std::int64_t two_pad = checked_mul(2, s.pad, function, "2 pad");
  const std::int64_t padded_h = checked_add(s.height, two_pad, function, "height + 2 pad");
  const std::int64_t padded_w = checked_add(s.width, two_pad, function, "width + 2 pad");
  require(padded_h >= s.kernel, function, "shape.kernel", s.kernel, "<= height + 2 pad = " + std::to_string(padded_h));
  require(padded_w >= s.kernel, function, "shape.kernel", s.kernel, "<= width + 2 pad = " + std::to_string(padded_w));
  const std::int64_t out_channels = checked_mul(s.channels, s.multiplier, function, "channels * multiplier");
  checked_elements<float>({s.batch, s.channels, s.height, s.width}, function, "in (batch * channels * height * width)");
  checked_elements<float>({out_channels, s.kernel, s.kernel}, function, "weight (channels * multiplier * kernel^2)");
  checked_elements<float>({s.batch, out_channels, padded_h, padded_w}, function,
                          "out (at most batch * channels * multiplier * (height + 2 pad) * (width + 2 pad))");
  if (s.batch == 0 || s.channels == 0) return;
  queue.check_pointer(in, function, "in");
  queue.check_pointer(weight, function, "weight");
  if (bias) queue.check_pointer(bias, function, "bias");
  queue.check_pointer(out, function, "out");
  if (queue.device().is_cpu()) return dwconv_impl::portable_cpu(queue, s, in, weight, bias, out);
#if PORTKERN_HAVE_CUDA
  dwconv_impl::portable_cuda(queue, s, in, weight, bias, out);
#endif
}

}  // namespace portkern::ops
