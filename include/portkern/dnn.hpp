// Deep-learning operators on any device: 2-D convolution (forward, fp32) and 2-D max / average pooling.
//
// Layouts: input NHWC (batch, rows, columns, channels), filter RSCK (window rows, window columns, input
// channels, output channels), output NHWC. Every pointer is memory of the queue's device; tensors are dense
// (no strides). Output element (n, y, x, k) is
//     sum over r < window_h, s < window_w, c < in_c of
//       input(n, y*stride_h + r*dilation_h - pad_top, x*stride_w + s*dilation_w - pad_left, c) * filter(r, s, c, k)
// (input outside the image reads as 0), plus bias[k] when a bias is given, then max(0, .) when relu is set.
//
// Algorithms (families), each with an enumerable configuration space (conv2d_space lists it):
//   direct    — the naive loop (seed 000, Algorithm 1); the baseline, any descriptor (dilation included).
//   tiled     — each item computes a tile of output pixels x a vector of output channels, reading input
//               channels in vectors (seed 000, 4.1.1); dilation 1.
//   im2col    — the input patches as a matrix, then portkern::gemm; dilation 1.
//   gemm_1x1  — 1x1 windows, stride 1, no padding: the NHWC input already is the GEMM operand; one GEMM.
//   winograd  — F(2x2, 3x3) and F(4x4, 3x3) for 3x3 windows, stride 1, dilation 1: input, filter and output
//               transforms around 16 or 36 batched GEMMs. Its error bound is in src/conv2d/winograd.hpp.
// A hand-written rule picks one when the caller does not (conv2d_select says which and why).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "portkern/runtime/buffer.hpp"
#include "portkern/runtime/queue.hpp"

namespace portkern {

// One convolution's shape and options. out_h / out_w of 0 are derived; non-zero ones are checked.
struct Conv2dDesc {
  std::int64_t batch = 1;
  std::int64_t in_h = 0, in_w = 0, in_c = 0;
  std::int64_t out_c = 0;
  std::int64_t window_h = 1, window_w = 1;
  std::int64_t stride_h = 1, stride_w = 1;
  std::int64_t pad_top = 0, pad_bottom = 0, pad_left = 0, pad_right = 0;
  std::int64_t dilation_h = 1, dilation_w = 1;
  std::int64_t out_h = 0, out_w = 0;
  const float* bias = nullptr;   // out_c values on the device, or nullptr for none
  bool relu = false;             // max(0, .) after the bias
};

enum class Padding { valid, same };

// Sets the descriptor's padding: VALID (none) or SAME (TensorFlow's: out = ceil(in / stride), the total
// padding split evenly with the odd element at the bottom / right). out_h and out_w are reset to 0 (derived).
Conv2dDesc with_padding(Conv2dDesc desc, Padding padding);

// The descriptor with out_h / out_w filled in, after every check conv2d makes on the shape (not pointers).
// Throws portkern::Error naming the field and value, e.g.
//   portkern::conv2d: argument desc.out_h = 5 must be (in_h + pad_top + pad_bottom - dilation_h*(window_h-1) - 1)/stride_h + 1 = 6
Conv2dDesc conv2d_complete(const Conv2dDesc& desc);

// An algorithm and configuration to use instead of the rule's pick; empty fields: the rule decides. A
// configuration names its algorithm ("tiled/t2x4_c4_k4"), so `config` alone is enough.
struct Conv2dChoice {
  std::string algorithm;   // "direct", "tiled", "im2col", "gemm_1x1", "winograd"
  std::string config;      // a configuration name of that algorithm
  bool operator==(const Conv2dChoice&) const = default;
};

// output = conv2d(input, filter) (+ bias, ReLU) on the queue. Scratch memory for im2col and Winograd is
// kept per queue and reused by later calls on it.
void conv2d(Queue& queue, const Conv2dDesc& desc, const float* input, const float* filter, float* output,
            const Conv2dChoice& force = {});

// What the rule picks for a descriptor on a device, and the reason, without running anything.
struct Conv2dSelection {
  std::string algorithm, config, reason;
};
Conv2dSelection conv2d_select(const Device& device, const Conv2dDesc& desc);

// Whether a choice can compute this descriptor on this device (its algorithm applies and its configuration
// is instantiated). `why` receives the reason when it cannot.
bool conv2d_supports(const Device& device, const Conv2dDesc& desc, const Conv2dChoice& choice,
                     std::string* why = nullptr);

// Every configuration of every algorithm: the whole space (instantiated_only = false), or the ones this
// build instantiates for the device's back end.
std::vector<Conv2dChoice> conv2d_space(const Device& device, bool instantiated_only = true);

// Winograd weights transformed once and reused by every call with the same filter (a weight tensor of a
// trained network): alpha*alpha matrices of in_c x out_c, alpha = tile + 2.
class WinogradFilter {
 public:
  WinogradFilter() = default;
  int tile() const { return tile_; }                 // 2: F(2x2, 3x3); 4: F(4x4, 3x3)
  std::int64_t in_c() const { return in_c_; }
  std::int64_t out_c() const { return out_c_; }
  const float* data() const { return data_.data(); }
  const Device& device() const { return data_.device(); }

 private:
  friend WinogradFilter winograd_transform_filter(Queue&, std::int64_t, std::int64_t, const float*, int);
  int tile_ = 0;
  std::int64_t in_c_ = 0, out_c_ = 0;
  Buffer<float> data_;
};

// Transforms a 3 x 3 x in_c x out_c (RSCK) filter for F(tile x tile, 3x3), tile 2 or 4.
WinogradFilter winograd_transform_filter(Queue& queue, std::int64_t in_c, std::int64_t out_c, const float* filter,
                                         int tile);

// The convolution with pre-transformed weights: desc must be 3x3, stride 1, dilation 1, with the filter's
// channel counts.
void conv2d_winograd(Queue& queue, const Conv2dDesc& desc, const float* input, const WinogradFilter& filter,
                     float* output);

// ---- pooling ---------------------------------------------------------------------------------------------

// A pooling window over an NHWC tensor; channels are pooled independently. out_h / out_w of 0 are derived
// as (in + pad_before + pad_after - window) / stride + 1. Padding is smaller than the window, so every window
// holds at least one element of the image.
struct Pool2dDesc {
  std::int64_t batch = 1;
  std::int64_t in_h = 0, in_w = 0, channels = 0;
  std::int64_t window_h = 2, window_w = 2;
  std::int64_t stride_h = 2, stride_w = 2;
  std::int64_t pad_top = 0, pad_bottom = 0, pad_left = 0, pad_right = 0;
  std::int64_t out_h = 0, out_w = 0;
};

Pool2dDesc pool2d_complete(const Pool2dDesc& desc);

// Maximum over the window's elements inside the image (padding never wins).
void max_pool2d(Queue& queue, const Pool2dDesc& desc, const float* input, float* output);
// Average over the window's elements inside the image: padding is not counted, so a window that overlaps
// the border divides by the number of in-bounds elements, not by window_h * window_w.
void avg_pool2d(Queue& queue, const Pool2dDesc& desc, const float* input, float* output);

}  // namespace portkern
