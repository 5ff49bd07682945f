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
  // Column-major view: output (out_c x pixels) = filter (out_c x in_c, ld out_c) * input (in_c x pixels).
  const std::int64_t pixels = a.batch * a.out_h * a.out_w;
  gemm<float>(q, Op::none, Op::none, a.out_c, pixels, a.in_c, 1.f, a.filter, a.out_c, a.input, a.in_c, 0.f, a.output,
              a.out_c, {"", "", a.precision});
  bias_relu(q, a, 0, pixels);
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
