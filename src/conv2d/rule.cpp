// The rule, in order (first match wins):
//   dilation > 1                                  -> direct (the only algorithm that takes it)
//   1x1 window, stride 1, no padding              -> gemm_1x1 (the input is the GEMM operand)
//   3x3, stride 1, in_c >= 16 and out_c >= 16     -> winograd: F(4x4) when the output is at least 20 x 20,
//                                                    else F(2x2) (measured on the CPU: at 14x14 and 7x7, F(2x2)'s
//                                                    larger GEMMs and fewer partial tiles win)
//   anything else                                 -> im2col (chunked on the CPU, whole on a GPU)
#include "conv2d/rule.hpp"

namespace portkern::conv2d_impl {

bool known_algorithm(const std::string& a) {
  return a == "direct" || a == "tiled" || a == "im2col" || a == "gemm_1x1" || a == "winograd";
}

bool applies(const std::string& algorithm, const Conv2dDesc& d, std::string* why) {
  auto no = [&](const char* reason) {
    if (why) *why = reason;
    return false;
  };
  const bool dilated = d.dilation_h != 1 || d.dilation_w != 1;
  if (algorithm == "direct") return true;
  if (algorithm == "tiled" || algorithm == "im2col") return dilated ? no("dilation > 1 takes the direct path only") : true;
  if (algorithm == "gemm_1x1") {
    if (d.window_h != 1 || d.window_w != 1) return no("gemm_1x1 needs a 1x1 window");
    if (d.stride_h != 1 || d.stride_w != 1) return no("gemm_1x1 needs stride 1");
    if (d.pad_top || d.pad_bottom || d.pad_left || d.pad_right) return no("gemm_1x1 needs no padding");
    return dilated ? no("dilation > 1 takes the direct path only") : true;
  }
  if (algorithm == "winograd") {
    if (d.window_h != 3 || d.window_w != 3) return no("winograd needs a 3x3 window");
    if (d.stride_h != 1 || d.stride_w != 1) return no("winograd needs stride 1");
    return dilated ? no("dilation > 1 takes the direct path only") : true;
  }
  return no("unknown algorithm (direct, tiled, im2col, gemm_1x1, winograd)");
}

Conv2dSelection select(const Device& device, const Conv2dDesc& d) {
  if (d.dilation_h != 1 || d.dilation_w != 1) return {"direct", "direct/default", "dilation > 1"};
  if (applies("gemm_1x1", d, nullptr)) return {"gemm_1x1", "gemm_1x1/default", "1x1 window, stride 1, no padding"};
  if (applies("winograd", d, nullptr) && d.in_c >= 16 && d.out_c >= 16) {
    if (d.out_h >= 20 && d.out_w >= 20)
      return {"winograd", "winograd/f4", "3x3 stride 1, channels >= 16, output >= 20x20"};
    return {"winograd", "winograd/f2", "3x3 stride 1, channels >= 16, output < 20x20"};
  }
  if (device.is_cpu()) return {"im2col", "im2col/chunked", "default (CPU: patches in cache-sized chunks)"};
  return {"im2col", "im2col/whole", "default (GPU: all patches at once)"};
}

}  // namespace portkern::conv2d_impl
