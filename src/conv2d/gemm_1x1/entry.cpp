// The `gemm_1x1` algorithm: a 1x1 window at stride 1 without padding is one GEMM of the NHWC input's pixels by
// the filter, then the epilogue. Its registry entry (registry.hpp).
#include "conv2d/call.hpp"
#include "conv2d/registry.hpp"
#include "portkern/blas.hpp"

namespace portkern::conv2d_impl {

namespace {

std::string why_not_gemm_1x1(const Conv2dDesc& d) {
  if (d.window_h != 1 || d.window_w != 1) return "gemm_1x1 needs a 1x1 window";
  if (d.stride_h != 1 || d.stride_w != 1) return "gemm_1x1 needs stride 1";
  if (d.pad_top || d.pad_bottom || d.pad_left || d.pad_right) return "gemm_1x1 needs no padding";
  return dense_undilated(d);
}

void run_gemm_1x1(Queue& q, std::string_view, const ConvArgs& a) {
  gemm_then_epilogue(q, a, 0, a.batch * a.out_h * a.out_w, a.in_c, a.input);   // the input is the GEMM's operand
}

}  // namespace

extern const AlgorithmEntry gemm_1x1_entry;
const AlgorithmEntry gemm_1x1_entry{"gemm_1x1",
                                    PORTKERN_CONV2D_NAMES("gemm_1x1/default"),
                                    PORTKERN_CONV2D_BUILT("gemm_1x1/default"),
                                    [](const Device&) { return std::string("gemm_1x1/default"); },
                                    why_not_gemm_1x1,
                                    run_gemm_1x1};

}  // namespace portkern::conv2d_impl
