// The arguments every convolution kernel sees: a completed, checked descriptor flattened into plain values
// (kernels copy them to the device by value) and the device pointers.
#pragma once

#include <cstdint>

#include "portkern/kernel/model.hpp"
#include "portkern/kernel/plus_if_set.hpp"
#include "portkern/precision.hpp"

namespace portkern::conv2d_impl {

}  // namespace portkern::conv2d_impl
namespace portkern {
template <class T>
class GemmPackedA;
}  // namespace portkern
namespace portkern::conv2d_impl {

struct ConvArgs {
  std::int64_t batch, in_h, in_w, in_c, out_c;
  std::int64_t window_h, window_w, stride_h, stride_w, pad_top, pad_left, dilation_h, dilation_w;
  std::int64_t out_h, out_w;
  std::int64_t groups;   // Conv2dDesc::groups: 1 but on the direct and depthwise paths
  const float* input;    // NHWC
  const float* filter;   // RSCK, C = in_c / groups
  float* output;         // NHWC
  const float* bias;       // out_c values or nullptr
  const float* residual;   // the output's shape, or nullptr
  bool relu;
  Precision precision = Precision::accurate;   // of the GEMMs an algorithm calls (portkern/precision.hpp)
  // The filter packed once (conv2d_pack_filter), or nullptr: gemm_1x1 and im2col multiply by it instead.
  const GemmPackedA<float>* packed_filter = nullptr;
  // The same filter as implicit_wgmma's tensor-core rows (Conv2dPackedFilter::tensor_core_rows), or nullptr.
  const float* filter_rows = nullptr;
};

// The epilogue: an accumulated value of output channel k, plus its bias, then ReLU. `output` is memory at least
// k + 1 floats long (kernel::plus_if_set's fallback).
PORTKERN_INLINE float finish(float value, const float* bias, bool relu, std::int64_t k, const float* output) {
  value = kernel::plus_if_set(value, bias, k, output);
  return relu && value < 0.f ? 0.f : value;
}

// The epilogue every algorithm applies to the output element at `offset` (its index from a.output), channel
// k: plus the bias, plus the residual, then ReLU.
PORTKERN_INLINE float finish(float value, const ConvArgs& a, std::int64_t offset, std::int64_t k) {
  return finish(kernel::plus_if_set(value, a.residual, offset, a.output), a.bias, a.relu, k, a.output);
}

}  // namespace portkern::conv2d_impl
