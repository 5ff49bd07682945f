// The `implicit_wgmma` algorithm: the convolution as one implicit GEMM on Hopper's warpgroup tensor-core
// instructions, the cuda_wgmma family's pipeline (src/gemm/cuda_wgmma/) with A the windows of the NHWC input,
// copied straight into the stages by the copy engine's im2col mode (channels a multiple of 32) or else by the
// producer's threads (no patch matrix, no im2col pass), multiplied at the call's precision (tf32: TF32;
// accurate: 3xTF32), the epilogue (bias, residual, ReLU) applied as the output is written where k is not split,
// else as a pass after. The filter is rewritten as the tensor cores read it on each
// call, or once where it comes packed (conv2d_pack_filter: Conv2dPackedFilter::tensor_core_rows). Where that pipeline does
// not run (the ieee precision, a GPU other than compute capability 9.0) the call runs as im2col's, the same
// product through a patch matrix. CUDA only. Its registry entry (registry.hpp).
//
// When it wins: layers whose im2col pass outweighs the product (3x3 and larger windows, strides, first layers)
// at tf32 and accurate on the H100; docs/performance.md has the figures beside cuDNN.
#include <limits>

#include "conv2d/call.hpp"
#include "conv2d/registry.hpp"
#if PORTKERN_HAVE_CUDA
#include "gemm/cuda_wgmma/wgmma_gemm.hpp"
#endif

namespace portkern::conv2d_impl {

namespace {

constexpr const char* config_name = "implicit_wgmma/default";

std::string why_not(const Conv2dDesc& d) {
  if (std::string why = dense_undilated(d); !why.empty()) return why;
  constexpr std::int64_t limit = std::numeric_limits<std::int32_t>::max();
  if (d.batch * d.out_h * d.out_w > limit || d.window_h * d.window_w * d.in_c > limit || d.in_h * d.stride_h > limit ||
      d.in_w * d.stride_w > limit || d.out_c > limit)
    return "more than 2^31 - 1 output pixels, window elements or image rows";
  return "";
}

void run(Queue& q, std::string_view, const ConvArgs& a) {
#if PORTKERN_HAVE_CUDA
  if (q.device().is_cuda() && a.precision != Precision::ieee) {
    namespace wgmma = gemm_impl::cuda_wgmma;
    const wgmma::Input input = a.precision == Precision::tf32 ? wgmma::Input::tf32 : wgmma::Input::tf32x3;
    const wgmma::Windows w{a.input,          int(a.in_h),       int(a.in_w),       int(a.in_c),
                           int(a.out_h),     int(a.out_w),      int(a.window_w),   int(a.stride_h),
                           int(a.stride_w),  int(a.pad_top),    int(a.pad_left),   1,
                           1,                a.batch * a.out_h * a.out_w,          a.window_h * a.window_w * a.in_c};
    wgmma::Problem p = wgmma::convolution(w, a.filter, a.out_c, a.output, a.filter_rows);
    p.epilogue = {a.bias, a.residual, a.relu};
    if (wgmma::applies(q.device(), input, p)) {
      if (!wgmma::run(q, input, p)) bias_relu(q, a, 0, w.pixels);
      return;
    }
  }
#endif
  const AlgorithmEntry& im2col = *find_conv2d_algorithm("im2col");
  im2col.run(q, im2col.default_config(q.device()), a);
}

}  // namespace

extern const AlgorithmEntry implicit_wgmma_entry;
const AlgorithmEntry implicit_wgmma_entry{
    "implicit_wgmma", PORTKERN_CONV2D_NAMES(config_name),
    [](Backend backend) -> const std::vector<std::string>& {
      static const std::vector<std::string> cuda{config_name}, cpu;
      return backend == Backend::cuda ? cuda : cpu;
    },
    [](const Device&) { return std::string(config_name); }, why_not, run};

}  // namespace portkern::conv2d_impl
