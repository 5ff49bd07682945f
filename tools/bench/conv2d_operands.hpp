// One convolution's operands on a device (random input and filter, uniform in [-1, 1]), a call that runs a
// chosen algorithm on them (Winograd with its weights transformed once, and gemm_1x1 / im2col on the CPU with
// them packed once, before any timing, as a network's weights are), and the sampled error of the output
// against float64. Shared by `portkern bench conv2d` and `portkern tune conv2d`.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "portkern/dnn.hpp"

namespace portkern::bench {

// 2 * batch * out_h * out_w * out_c * in_c * window_h * window_w
double conv_flops(const Conv2dDesc& d);

class ConvOperands {
 public:
  ConvOperands(Queue& q, const Conv2dDesc& completed_desc);

  const Conv2dDesc& desc() const { return d_; }
  double flops() const { return conv_flops(d_); }
  const float* input() const { return input_.data(); }
  const float* filter() const { return filter_.data(); }
  float* output() { return output_.data(); }

  // A call computing the output with `choice` (empty: the library's own pick); with `epilogue`, plus a bias
  // and a residual (random, uniform in [-1, 1], made by the first such call), then ReLU.
  std::function<void()> call(const Conv2dChoice& choice = {}, bool epilogue = false);

  // Poisons the output with NaN (before the first call whose result is checked).
  void poison();
  // Largest |out - ref| / (sum |x w| + |bias| + |residual|) over 64 sampled outputs, the reference with the
  // epilogue or without (NaN: unwritten or wrong).
  double max_rel_error(bool epilogue = false);

 private:
  Queue& q_;
  Conv2dDesc d_;
  // d_ with the bias, the residual and ReLU (made on first use).
  const Conv2dDesc& with_epilogue();

  std::vector<float> host_in_, host_f_, host_bias_, host_residual_;
  Buffer<float> input_, filter_, output_;
  std::unique_ptr<Buffer<float>> bias_, residual_;
  Conv2dDesc epilogue_d_;
  std::vector<std::shared_ptr<WinogradFilter>> transformed_;   // kept alive for the calls that use them
  std::unique_ptr<Conv2dPackedFilter> packed_;   // made by the first call that multiplies by it, shared by all
};

}  // namespace portkern::bench
