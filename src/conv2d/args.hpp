// The arguments every convolution kernel sees: a completed, checked descriptor flattened into plain values
// (kernels copy them to the device by value) and the device pointers.
#pragma once

#include <cstdint>

#include "portkern/kernel/model.hpp"
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

// `value` plus from[i] where `from` is set (a bias, a residual), else value. On CUDA a uniform branch. On the CPU
// a load from memory that exists (`from`, else `fallback`, the output, at least as long: the base chosen once, the
// same for every item, so the load stays a plain vector load) and a select. In a vectorised item loop GCC 12 made
// `if (from) value += from[i]` a masked load, and a masked load whose lanes are all off but whose address is near
// 0 (a null pointer plus an offset) ran several times slower than a plain one on Zen 5: Winograd's output
// transform with no epilogue ran ResNet-50's conv2_3 at 97 GFLOP/s on one core, with a bias and a residual at 535.
PORTKERN_INLINE float plus_if_set(float value, const float* from, std::int64_t i, const float* fallback) {
#if defined(__CUDA_ARCH__)
  (void)fallback;
  return from ? value + from[i] : value;
#else
  const float* const base = from ? from : fallback;
  const float addend = base[i];
  return from ? value + addend : value;
#endif
}

// The epilogue: an accumulated value of output channel k, plus its bias, then ReLU. `output` is memory at least
// k + 1 floats long (plus_if_set's fallback).
PORTKERN_INLINE float finish(float value, const float* bias, bool relu, std::int64_t k, const float* output) {
  value = plus_if_set(value, bias, k, output);
  return relu && value < 0.f ? 0.f : value;
}

// The epilogue every algorithm applies to the output element at `offset` (its index from a.output), channel
// k: plus the bias, plus the residual, then ReLU.
PORTKERN_INLINE float finish(float value, const ConvArgs& a, std::int64_t offset, std::int64_t k) {
  return finish(plus_if_set(value, a.residual, offset, a.output), a.bias, a.relu, k, a.output);
}

}  // namespace portkern::conv2d_impl
