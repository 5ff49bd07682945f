// The convolution's and pooling's test bed, shared by the CPU and GPU tests and by every algorithm and
// configuration: float64 references on the host, random inputs (never zero), outputs poisoned with NaN
// before each call, odd sizes, every stride / padding / dilation variant, batches, channel counts that are
// not multiples of any vector width, 1x1 to 7x7 windows, bias, residual and ReLU. The error bound is the float32
// accumulation bound of a dot product (direct, tiled, im2col, gemm_1x1) or Winograd's element-wise bound
// (src/conv2d/winograd.hpp), both computed from the data.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "portkern/dnn.hpp"
#include "testing.hpp"

namespace portkern {
inline void PrintTo(const Conv2dChoice& choice, std::ostream* os) { *os << choice.config; }
}  // namespace portkern

namespace portkern::testing {

struct ConvCase {
  Conv2dDesc desc;
  bool bias = false;
  std::string label;
  bool residual = false;   // a residual tensor added before the ReLU
};

inline std::string describe(const Conv2dDesc& d) {
  auto s = [](std::int64_t v) { return std::to_string(v); };
  return "N" + s(d.batch) + " " + s(d.in_h) + "x" + s(d.in_w) + "x" + s(d.in_c) + " -> " + s(d.out_c) + " window " +
         s(d.window_h) + "x" + s(d.window_w) + " stride " + s(d.stride_h) + "x" + s(d.stride_w) + " pad " +
         s(d.pad_top) + "," + s(d.pad_bottom) + "," + s(d.pad_left) + "," + s(d.pad_right) + " dilation " +
         s(d.dilation_h) + "x" + s(d.dilation_w) + (d.groups != 1 ? " groups " + s(d.groups) : "") +
         (d.relu ? " relu" : "");
}

inline Conv2dDesc conv_desc(std::int64_t batch, std::int64_t h, std::int64_t w, std::int64_t c, std::int64_t k,
                            std::int64_t wh, std::int64_t ww, std::int64_t sh, std::int64_t sw,
                            std::array<std::int64_t, 4> pad, std::int64_t dh = 1, std::int64_t dw = 1,
                            bool relu = false) {
  Conv2dDesc d;
  d.batch = batch, d.in_h = h, d.in_w = w, d.in_c = c, d.out_c = k;
  d.window_h = wh, d.window_w = ww, d.stride_h = sh, d.stride_w = sw;
  d.pad_top = pad[0], d.pad_bottom = pad[1], d.pad_left = pad[2], d.pad_right = pad[3];
  d.dilation_h = dh, d.dilation_w = dw, d.relu = relu;
  return d;
}

// First layers of 1 to 3 channels at strides, windows and images the tuning never saw (patchify stems too): the
// deployments of CUDA classes send them to `windowed` at every precision (checked on the trees alone by
// tests/test_device_class.cpp, through the whole selection by tests/gpu/test_cuda_conv2d.cpp).
inline std::vector<Conv2dDesc> first_layer_descs() {
  return {conv_desc(1, 224, 224, 3, 64, 3, 3, 1, 1, {1, 1, 1, 1}),  // VGG-16's, at batches 1 and 4
          conv_desc(4, 224, 224, 3, 64, 3, 3, 1, 1, {1, 1, 1, 1}),
          conv_desc(8, 224, 224, 3, 64, 3, 3, 2, 2, {1, 1, 1, 1}),  // stride 2
          conv_desc(4, 230, 230, 3, 64, 7, 7, 2, 2, {0, 0, 0, 0}),  // ResNet-50's, padded by the caller
          conv_desc(1, 64, 64, 1, 32, 9, 9, 1, 1, {4, 4, 4, 4}),    // one channel, 9x9
          conv_desc(2, 300, 300, 3, 48, 5, 5, 2, 2, {2, 2, 2, 2}),
          conv_desc(1, 224, 224, 3, 96, 4, 4, 4, 4, {0, 0, 0, 0})};  // a patchify stem
}

// The cases every algorithm runs (each runs those it applies to).
inline std::vector<ConvCase> conv_cases() {
  std::vector<ConvCase> cases = {
      {conv_desc(1, 7, 9, 3, 5, 3, 3, 1, 1, {1, 1, 1, 1}), true, "3x3 pad 1, 3 channels, bias"},
      {conv_desc(2, 11, 10, 17, 13, 3, 3, 1, 1, {0, 0, 0, 0}, 1, 1, true), true, "3x3 valid, batch 2, bias relu"},
      {conv_desc(1, 13, 11, 24, 40, 3, 3, 1, 1, {1, 1, 1, 1}, 1, 1, true), true, "3x3 same, bias residual relu", true},
      {conv_desc(2, 7, 6, 40, 24, 1, 1, 1, 1, {0, 0, 0, 0}, 1, 1, true), true, "1x1 batch 2, bias residual relu", true},
      {conv_desc(1, 12, 11, 5, 19, 3, 3, 2, 2, {1, 1, 1, 1}), false, "3x3 stride 2, residual", true},
      {conv_desc(1, 13, 14, 19, 21, 3, 3, 1, 1, {1, 1, 1, 1}, 1, 1, true), false, "3x3 pad 1, partial tiles, relu"},
      {conv_desc(1, 9, 9, 33, 35, 3, 3, 1, 1, {0, 0, 0, 0}), false, "3x3 valid, 33 -> 35 channels"},
      {conv_desc(1, 6, 5, 64, 67, 3, 3, 1, 1, {1, 1, 1, 1}), true, "3x3 same, 64 -> 67 channels"},
      {conv_desc(3, 9, 8, 4, 8, 1, 1, 1, 1, {0, 0, 0, 0}), false, "1x1 batch 3"},
      {conv_desc(1, 4, 5, 130, 70, 1, 1, 1, 1, {0, 0, 0, 0}, 1, 1, true), true, "1x1 130 -> 70, bias relu"},
      {conv_desc(2, 9, 10, 6, 7, 1, 1, 2, 2, {0, 0, 0, 0}), false, "1x1 stride 2"},
      {conv_desc(1, 15, 13, 5, 9, 5, 5, 2, 2, {2, 2, 1, 3}), true, "5x5 stride 2 asymmetric pad"},
      {conv_desc(1, 20, 17, 3, 16, 7, 7, 2, 2, {3, 3, 3, 3}, 1, 1, true), true, "7x7 stride 2 pad 3, bias relu"},
      {conv_desc(2, 10, 9, 7, 6, 3, 3, 2, 1, {0, 1, 1, 0}), false, "3x3 stride 2x1"},
      {conv_desc(2, 5, 7, 2, 3, 2, 3, 1, 2, {1, 0, 0, 1}), false, "2x3 window, stride 1x2"},
      {conv_desc(1, 12, 11, 5, 6, 3, 3, 1, 1, {2, 2, 2, 2}, 2, 2), true, "3x3 dilation 2"},
      {conv_desc(1, 14, 13, 3, 4, 3, 3, 2, 1, {1, 0, 2, 1}, 3, 2, true), false, "3x3 dilation 3x2 stride 2x1"},
      // Rows wider than the CPU micro-kernels' 6 columns and window rows of 64 or more values: tiles whose
      // windows are read in place beside tiles that meet the padding or cross a row (implicit).
      {conv_desc(1, 9, 23, 32, 20, 3, 3, 1, 1, {1, 1, 1, 1}, 1, 1, true), true, "3x3 same, 23 wide, 32 channels", true},
      {conv_desc(2, 15, 29, 24, 33, 3, 3, 2, 2, {1, 1, 1, 1}), true, "3x3 stride 2, 29 wide, 24 channels"},
      {conv_desc(1, 11, 26, 32, 17, 5, 5, 1, 1, {2, 2, 2, 2}, 1, 1, true), false, "5x5 same, 26 wide, 32 channels"},
      {conv_desc(1, 8, 27, 80, 24, 1, 1, 2, 2, {0, 0, 0, 0}), true, "1x1 stride 2, 80 channels"},
      // 720 values per window: the CPU's packed filter has depth blocks of 360 (im2col/in_place: a block
      // starts inside a window row of 240)
      {conv_desc(1, 6, 9, 80, 70, 3, 3, 2, 1, {1, 1, 1, 0}, 1, 1, true), true, "3x3 stride 2x1, 80 -> 70, deep", true},
      // Tiles of output pixels whose windows' top or bottom rows are border only, which im2col/in_place's GEMM
      // skips (depth of 256 or more): tiles across rows and images, and a border so deep that the first output
      // rows' windows hold no image row.
      {conv_desc(3, 5, 7, 40, 45, 3, 3, 1, 1, {1, 1, 1, 1}, 1, 1, true), true, "3x3 same, batch 3, 7 wide, 40 -> 45",
       true},
      {conv_desc(2, 4, 6, 32, 20, 3, 3, 1, 1, {4, 3, 1, 1}), true, "3x3, border of 4 rows above, 3 below, batch 2"},
      // First layers: 3 channels on images wider and taller than windowed's tiles (partial tiles on both sides,
      // two blocks of output channels), and an 11 x 11 stride-4 window whose region holds fewer than 3 channels
      // on 8 x 16 tiles (windowed takes them in chunks of 2 and 1). With the 3x3 and 7x7 ones above, every window
      // windowed compiles its products for (compiled_windows): 5x5 and 9x9 at stride 1 of one channel, 6x6 at 2,
      // a patchify 4x4 at 4.
      {conv_desc(2, 19, 37, 3, 70, 3, 3, 1, 1, {1, 1, 1, 1}, 1, 1, true), true, "3x3 same, 3 -> 70, 19 x 37, bias relu",
       true},
      {conv_desc(1, 47, 71, 3, 35, 11, 11, 4, 4, {2, 1, 2, 1}), true, "11x11 stride 4, 3 -> 35, 47 x 71, bias"},
      {conv_desc(1, 13, 23, 1, 19, 5, 5, 1, 1, {2, 2, 2, 2}, 1, 1, true), true, "5x5 same, 1 -> 19, 13 x 23, relu"},
      {conv_desc(1, 11, 29, 1, 37, 9, 9, 1, 1, {4, 4, 4, 4}), false, "9x9 same, 1 -> 37, 11 x 29", true},
      {conv_desc(2, 17, 43, 3, 17, 6, 6, 2, 2, {2, 2, 2, 2}), true, "6x6 stride 2 pad 2, 3 -> 17, 17 x 43"},
      {conv_desc(1, 29, 70, 3, 33, 4, 4, 4, 4, {0, 0, 0, 0}, 1, 1, true), true, "4x4 stride 4, 3 -> 33, 29 x 70, relu"},
      // First layers of 1-32 output channels on rows of 23-67 pixels (the CPU's patch-row kernels: tiles of 28
      // pixels by 16 channels or 14 by 32, the last tile of a row overlapping the one before): strides 1, 2 and 4,
      // partial last vectors, rows of one tile and of a prime number of pixels, padded (a copied band) and
      // unpadded (the input read in place), batches across bands.
      {conv_desc(2, 31, 61, 3, 16, 3, 3, 2, 2, {1, 1, 1, 1}, 1, 1, true), true,
       "3x3 stride 2, 3 -> 16, 61 wide, batch 2, bias residual relu", true},
      {conv_desc(1, 9, 59, 3, 32, 3, 3, 1, 1, {1, 1, 1, 1}), true, "3x3 same, 3 -> 32, 59 wide, bias"},
      {conv_desc(1, 10, 67, 3, 1, 6, 6, 2, 2, {2, 2, 2, 2}), false, "6x6 stride 2, 3 -> 1, 67 wide, residual", true},
      {conv_desc(2, 7, 45, 3, 17, 7, 7, 2, 2, {3, 3, 3, 3}, 1, 1, true), true,
       "7x7 stride 2, 3 -> 17, 45 wide, batch 2, bias relu"},
      {conv_desc(1, 8, 124, 3, 20, 4, 4, 4, 4, {0, 0, 0, 0}), false,
       "4x4 stride 4 unpadded, 3 -> 20, 124 wide, residual", true},
      {conv_desc(1, 12, 32, 1, 6, 5, 5, 1, 1, {0, 0, 0, 0}, 1, 1, true), true, "5x5 valid, 1 -> 6, 32 wide, bias relu"},
      // ... of 3 and 4 vectors of output channels (tiles of 9 and 6 pixels), and of two panels (64 + 36 channels)
      {conv_desc(1, 9, 17, 3, 64, 3, 3, 1, 1, {1, 1, 1, 1}, 1, 1, true), true, "3x3 same, 3 -> 64, 17 wide, bias relu",
       true},
      {conv_desc(1, 11, 23, 1, 41, 5, 5, 1, 1, {2, 2, 2, 2}), false, "5x5 same, 1 -> 41, 23 wide"},
      {conv_desc(2, 9, 38, 3, 100, 4, 4, 4, 4, {0, 0, 0, 0}), true, "4x4 stride 4 unpadded, 3 -> 100, batch 2, bias",
       true},
  };
  // Grouped and depthwise convolutions (ResNeXt, MobileNet, EfficientNet): `direct`, `grouped` and (groups = in_c
  // = out_c) `depthwise` take them; a block of 64 channels that spans several groups, groups of one output channel.
  auto grouped = [](Conv2dDesc d, std::int64_t groups) { d.groups = groups; return d; };
  cases.push_back({grouped(conv_desc(1, 9, 7, 12, 18, 3, 3, 1, 1, {1, 1, 1, 1}), 3), true, "3x3 same, 3 groups, bias"});
  cases.push_back({grouped(conv_desc(2, 11, 13, 8, 8, 3, 3, 2, 2, {1, 1, 1, 1}, 1, 1, true), 2), false,
                   "3x3 stride 2, 2 groups, residual relu", true});
  cases.push_back({grouped(conv_desc(1, 10, 9, 70, 70, 3, 3, 1, 1, {1, 1, 1, 1}, 1, 1, true), 70), true,
                   "depthwise 3x3, 70 channels, bias relu"});
  cases.push_back({grouped(conv_desc(2, 13, 11, 7, 14, 5, 5, 2, 2, {2, 2, 1, 3}), 7), true,
                   "depthwise 5x5 stride 2, multiplier 2, asymmetric pad"});
  cases.push_back({grouped(conv_desc(2, 15, 12, 130, 130, 5, 5, 2, 2, {2, 1, 0, 3}), 130), false,
                   "depthwise 5x5 stride 2, 130 channels, asymmetric pad, residual", true});
  cases.push_back({grouped(conv_desc(1, 11, 10, 19, 19, 3, 3, 1, 1, {2, 2, 2, 2}, 2, 2, true), 19), true,
                   "depthwise 3x3 dilation 2, 19 channels, bias relu"});
  cases.push_back({grouped(conv_desc(3, 7, 9, 1, 1, 3, 3, 1, 2, {0, 0, 1, 1}), 1), false,
                   "depthwise of one channel, stride 1x2"});
  // Channel counts that CUDA's depthwise runs in groups of 16, 32 and 64 (the cases above: 8).
  cases.push_back({grouped(conv_desc(1, 9, 13, 48, 48, 3, 3, 2, 1, {1, 1, 1, 1}), 48), true,
                   "depthwise 3x3 stride 2x1, 48 channels, bias"});
  cases.push_back({grouped(conv_desc(2, 9, 8, 96, 96, 7, 7, 1, 1, {3, 3, 3, 3}, 1, 1, true), 96), true,
                   "depthwise 7x7, 96 channels, bias relu"});
  cases.push_back({grouped(conv_desc(1, 6, 11, 128, 128, 3, 3, 1, 1, {1, 1, 1, 1}), 128), false,
                   "depthwise 3x3, 128 channels, residual", true});
  // Rows wide enough for whole blocks of 4 pixels with every tap inside (CUDA's segments, whose window rows are
  // sliding-window products: strides of 1 and 2 dilations, widths 3, 5 and 7).
  cases.push_back({grouped(conv_desc(1, 4, 37, 40, 40, 3, 3, 1, 1, {1, 1, 1, 1}, 1, 1, true), 40), true,
                   "depthwise 3x3, 37 wide, 40 channels, bias relu"});
  cases.push_back({grouped(conv_desc(2, 5, 45, 24, 24, 5, 5, 2, 2, {2, 2, 2, 2}), 24), false,
                   "depthwise 5x5 stride 2, 45 wide, 24 channels, residual", true});
  cases.push_back({grouped(conv_desc(1, 9, 41, 16, 16, 7, 7, 2, 2, {6, 6, 6, 6}, 2, 2), 16), true,
                   "depthwise 7x7 stride 2 dilation 2, 41 wide, 16 channels, bias"});
  cases.push_back({grouped(conv_desc(1, 12, 11, 6, 9, 3, 3, 1, 1, {2, 2, 2, 2}, 2, 2), 3), false,
                   "3x3 dilation 2, 3 groups"});
  // Groups of 2, 4 and 8 input and output channels (the CPU's block-diagonal mode): blocks of channels whose last
  // vector is shifted, and fewer channels than a vector.
  cases.push_back({grouped(conv_desc(1, 9, 11, 136, 136, 3, 3, 1, 1, {1, 1, 1, 1}, 1, 1, true), 34), true,
                   "3x3, 34 groups of 4, bias relu"});
  cases.push_back({grouped(conv_desc(2, 7, 8, 72, 72, 3, 3, 2, 2, {1, 1, 1, 1}), 9), false,
                   "3x3 stride 2, 9 groups of 8, residual", true});
  cases.push_back({grouped(conv_desc(1, 6, 5, 12, 12, 5, 5, 1, 1, {2, 2, 2, 2}), 6), true, "5x5, 6 groups of 2"});
  // Groups of 16 and 32 (whole vectors of one group, broadcast inputs): blocks of 64 channels, and of one group.
  cases.push_back({grouped(conv_desc(1, 9, 10, 128, 128, 3, 3, 1, 1, {1, 1, 1, 1}, 1, 1, true), 8), true,
                   "3x3, 8 groups of 16, bias relu"});
  cases.push_back({grouped(conv_desc(2, 7, 9, 48, 48, 3, 3, 2, 2, {1, 1, 1, 1}), 3), false,
                   "3x3 stride 2, 3 groups of 16, residual", true});
  cases.push_back({grouped(conv_desc(1, 6, 7, 96, 96, 3, 3, 1, 1, {1, 1, 1, 1}), 3), true, "3x3, 3 groups of 32"});
  // Blocks of 32 and of 16 channels for groups of 16 (out_c 160 and 80: no wider block splits them).
  cases.push_back({grouped(conv_desc(1, 7, 8, 160, 160, 3, 3, 1, 1, {1, 1, 1, 1}, 1, 1, true), 10), false,
                   "3x3, 10 groups of 16, relu", true});
  cases.push_back({grouped(conv_desc(1, 5, 6, 80, 80, 3, 3, 2, 2, {1, 1, 1, 1}), 5), true,
                   "3x3 stride 2, 5 groups of 16, bias"});
  cases.push_back({grouped(conv_desc(1, 5, 9, 128, 128, 3, 3, 1, 1, {1, 1, 1, 1}), 4), false,
                   "3x3, 4 groups of 32"});
  cases.push_back({grouped(conv_desc(1, 5, 6, 64, 32, 1, 1, 1, 1, {0, 0, 0, 0}), 32), false,
                   "1x1, 32 groups of 2 -> 1"});
  cases.push_back({grouped(conv_desc(2, 7, 6, 130, 130, 3, 3, 2, 1, {1, 1, 1, 1}, 1, 1, true), 5), true,
                   "3x3 stride 2x1, 5 groups of 26, bias relu"});
  // Channel blocks enough for a CPU group to walk every row of an image. Grouped (the block-diagonal mode): the
  // pixels at a row's edges are summed down the runs of rows that share their window rows, in blocks of 4,
  // pairs and single pixels; runs split by a second image, by a row whose window meets the padding, and (stride
  // 2, asymmetric padding) by both. Depthwise: blocks of 64 channels, and of 16 (8 pixels a block) down 40 rows.
  cases.push_back({grouped(conv_desc(2, 14, 7, 256, 256, 3, 3, 1, 1, {1, 1, 1, 1}, 1, 1, true), 256), true,
                   "depthwise 3x3, 14 x 7, 256 channels, bias relu"});
  cases.push_back({grouped(conv_desc(1, 12, 9, 256, 256, 3, 3, 1, 1, {1, 1, 1, 1}), 16), false,
                   "3x3, 12 x 9, 16 groups of 16, residual", true});
  cases.push_back({grouped(conv_desc(1, 23, 11, 256, 256, 5, 5, 2, 2, {2, 1, 2, 1}), 8), true,
                   "5x5 stride 2, 23 x 11, 8 groups of 32, asymmetric pad"});
  cases.push_back({grouped(conv_desc(1, 16, 5, 64, 64, 3, 3, 1, 1, {1, 1, 1, 1}), 64), false,
                   "depthwise 3x3, 16 x 5, 64 channels"});
  cases.push_back({grouped(conv_desc(1, 40, 6, 16, 16, 3, 3, 1, 1, {1, 1, 1, 1}), 16), true,
                   "depthwise 3x3, 40 x 6, 16 channels"});
  Conv2dDesc same = conv_desc(1, 9, 10, 4, 4, 3, 3, 2, 2, {0, 0, 0, 0});
  cases.push_back({with_padding(same, Padding::same), true, "3x3 stride 2 SAME"});
  Conv2dDesc valid = conv_desc(2, 8, 11, 5, 3, 5, 5, 1, 1, {4, 4, 4, 4});
  cases.push_back({with_padding(valid, Padding::valid), false, "5x5 VALID"});
  return cases;
}

// The tensors of one case, and the float64 reference with each output's error magnitude.
struct ConvData {
  Conv2dDesc d;
  std::vector<float> input, filter, bias, residual;
  std::vector<double> want, magnitude, winograd2, winograd4;   // winograd*: Winograd's bound magnitudes
};

// |A^T| X |A|-style products: out (p x p) = |L| x |L|^T for an (p x q) matrix L and a q x q matrix x.
inline void abs_sandwich(const double* l, int p, int q, const double* x, double* out) {
  std::vector<double> t(std::size_t(p * q));
  for (int i = 0; i < p; ++i)
    for (int j = 0; j < q; ++j) {
      double s = 0;
      for (int a = 0; a < q; ++a) s += std::abs(l[i * q + a]) * x[a * q + j];
      t[std::size_t(i * q + j)] = s;
    }
  for (int i = 0; i < p; ++i)
    for (int j = 0; j < p; ++j) {
      double s = 0;
      for (int b = 0; b < q; ++b) s += t[std::size_t(i * q + b)] * std::abs(l[j * q + b]);
      out[i * p + j] = s;
    }
}

// Winograd's element-wise bound magnitude |A^T| [sum_c (|G||g||G^T|) .* (|B^T||d||B|)] |A| for F(M x M, 3x3).
inline std::vector<double> winograd_magnitude(const ConvData& x, int M) {
  const Conv2dDesc& d = x.d;
  const int alpha = M + 2;
  static const double bt2[] = {1, 0, -1, 0, 0, 1, 1, 0, 0, -1, 1, 0, 0, 1, 0, -1};
  static const double g2[] = {1, 0, 0, .5, .5, .5, .5, -.5, .5, 0, 0, 1};
  static const double at2[] = {1, 1, 1, 0, 0, 1, -1, -1};
  static const double bt4[] = {4, 0, -5, 0, 1, 0, 0, -4, -4, 1, 1, 0, 0, 4, -4, -1, 1, 0,
                               0, -2, -1, 2, 1, 0, 0, 2, -1, -2, 1, 0, 0, 4, 0, -5, 0, 1};
  static const double g4[] = {1. / 4, 0, 0, -1. / 6, -1. / 6, -1. / 6, -1. / 6, 1. / 6, -1. / 6,
                              1. / 24, 1. / 12, 1. / 6, 1. / 24, -1. / 12, 1. / 6, 0, 0, 1};
  static const double at4[] = {1, 1, 1, 1, 1, 0, 0, 1, -1, 2, -2, 0, 0, 1, 1, 4, 4, 0, 0, 1, -1, 8, -8, 1};
  const double *bt = M == 2 ? bt2 : bt4, *g = M == 2 ? g2 : g4, *at = M == 2 ? at2 : at4;
  const std::int64_t C = d.in_c, K = d.out_c, A2 = alpha * alpha;
  // |G||g||G^T| per (c, k): alpha x alpha.
  std::vector<double> u(std::size_t(C * K * A2));
  for (std::int64_t c = 0; c < C; ++c)
    for (std::int64_t k = 0; k < K; ++k) {
      double t[6][3];
      for (int i = 0; i < alpha; ++i)
        for (int s = 0; s < 3; ++s) {
          double sum = 0;
          for (int r = 0; r < 3; ++r) sum += std::abs(g[i * 3 + r]) * std::abs(x.filter[std::size_t(((r * 3 + s) * C + c) * K + k)]);
          t[i][s] = sum;
        }
      for (int i = 0; i < alpha; ++i)
        for (int j = 0; j < alpha; ++j) {
          double sum = 0;
          for (int s = 0; s < 3; ++s) sum += t[i][s] * std::abs(g[j * 3 + s]);
          u[std::size_t((c * K + k) * A2 + i * alpha + j)] = sum;
        }
    }
  std::vector<double> out(std::size_t(d.batch * d.out_h * d.out_w * K), 0.0);
  const std::int64_t th = (d.out_h + M - 1) / M, tw = (d.out_w + M - 1) / M;
  std::vector<double> v(static_cast<std::size_t>(C * A2)), patch(static_cast<std::size_t>(A2)),
      sum(static_cast<std::size_t>(A2)), y(static_cast<std::size_t>(M * M));
  for (std::int64_t n = 0; n < d.batch; ++n)
    for (std::int64_t ty = 0; ty < th; ++ty)
      for (std::int64_t tx = 0; tx < tw; ++tx) {
        for (std::int64_t c = 0; c < C; ++c) {
          for (int i = 0; i < alpha; ++i)
            for (int j = 0; j < alpha; ++j) {
              const std::int64_t iy = ty * M + i - d.pad_top, ix = tx * M + j - d.pad_left;
              patch[std::size_t(i * alpha + j)] =
                  iy >= 0 && iy < d.in_h && ix >= 0 && ix < d.in_w
                      ? std::abs(x.input[std::size_t(((n * d.in_h + iy) * d.in_w + ix) * C + c)])
                      : 0.0;
            }
          abs_sandwich(bt, alpha, alpha, patch.data(), &v[std::size_t(c * A2)]);
        }
        for (std::int64_t k = 0; k < K; ++k) {
          std::fill(sum.begin(), sum.end(), 0.0);
          for (std::int64_t c = 0; c < C; ++c)
            for (std::int64_t e = 0; e < A2; ++e) sum[std::size_t(e)] += u[std::size_t((c * K + k) * A2 + e)] * v[std::size_t(c * A2 + e)];
          abs_sandwich(at, M, alpha, sum.data(), y.data());
          for (int i = 0; i < M; ++i)
            for (int j = 0; j < M; ++j) {
              const std::int64_t oy = ty * M + i, ox = tx * M + j;
              if (oy < d.out_h && ox < d.out_w) out[std::size_t(((n * d.out_h + oy) * d.out_w + ox) * K + k)] = y[std::size_t(i * M + j)];
            }
        }
      }
  return out;
}

inline ConvData make_conv_data(const ConvCase& c) {
  ConvData x;
  x.d = conv2d_complete(c.desc);
  const Conv2dDesc& d = x.d;
  x.input = random_vector<float>(std::size_t(d.batch * d.in_h * d.in_w * d.in_c), 21);
  const std::int64_t group_in = d.in_c / d.groups, group_out = d.out_c / d.groups;
  x.filter = random_vector<float>(std::size_t(d.window_h * d.window_w * group_in * d.out_c), 22);
  if (c.bias) x.bias = random_vector<float>(std::size_t(d.out_c), 23);
  const std::size_t outputs = std::size_t(d.batch * d.out_h * d.out_w * d.out_c);
  if (c.residual) x.residual = random_vector<float>(outputs, 24);
  x.want.resize(outputs);
  x.magnitude.resize(outputs);
  for (std::int64_t n = 0; n < d.batch; ++n)
    for (std::int64_t oy = 0; oy < d.out_h; ++oy)
      for (std::int64_t ox = 0; ox < d.out_w; ++ox)
        for (std::int64_t k = 0; k < d.out_c; ++k) {
          double sum = 0, magnitude = 0;
          for (std::int64_t r = 0; r < d.window_h; ++r)
            for (std::int64_t s = 0; s < d.window_w; ++s) {
              const std::int64_t iy = oy * d.stride_h + r * d.dilation_h - d.pad_top;
              const std::int64_t ix = ox * d.stride_w + s * d.dilation_w - d.pad_left;
              if (iy < 0 || iy >= d.in_h || ix < 0 || ix >= d.in_w) continue;
              for (std::int64_t ch = 0; ch < group_in; ++ch) {
                const std::int64_t in_ch = k / group_out * group_in + ch;   // the input channels of k's group
                const double p = double(x.input[std::size_t(((n * d.in_h + iy) * d.in_w + ix) * d.in_c + in_ch)]) *
                                 double(x.filter[std::size_t(((r * d.window_w + s) * group_in + ch) * d.out_c + k)]);
                sum += p;
                magnitude += std::abs(p);
              }
            }
          if (c.bias) sum += x.bias[std::size_t(k)], magnitude += std::abs(x.bias[std::size_t(k)]);
          const std::size_t at = std::size_t(((n * d.out_h + oy) * d.out_w + ox) * d.out_c + k);
          if (c.residual) sum += x.residual[at], magnitude += std::abs(x.residual[at]);
          if (d.relu) sum = std::max(sum, 0.0);
          x.want[at] = sum;
          x.magnitude[at] = magnitude;
        }
  if (d.window_h == 3 && d.window_w == 3 && d.stride_h == 1 && d.stride_w == 1 && d.dilation_h == 1 &&
      d.dilation_w == 1 && d.groups == 1) {   // Winograd's bound: dense convolutions only (a grouped filter is smaller)
    x.winograd2 = winograd_magnitude(x, 2);
    x.winograd4 = winograd_magnitude(x, 4);
  }
  return x;
}

// The references of every case, computed once per test program.
inline const std::vector<ConvData>& conv_data() {
  static const std::vector<ConvData> data = [] {
    std::vector<ConvData> all;
    for (const auto& c : conv_cases()) all.push_back(make_conv_data(c));
    return all;
  }();
  return data;
}

// Runs `choice` (or, with pretransformed, conv2d_winograd on weights from winograd_transform_filter, or
// gemm_1x1 / im2col / grouped/gemm on a filter from conv2d_pack_filter) on one case on `q` (which other threads
// may share) and checks every output against the reference. Returns false when the choice does not apply.
// residual_in_output: a case's residual is given in the output itself (oneDNN's sum post-op: desc.residual ==
// output), not in a tensor of its own. misalign: the input and filter start that many elements past an
// allocation's start (a caller's offset pointers; 1: no longer 16-byte aligned).
inline bool check_conv2d(Queue& q, const ConvData& x, const Conv2dChoice& choice, bool pretransformed = false,
                         bool residual_in_output = false, std::int64_t misalign = 0) {
  const Device device = q.device();
  Conv2dDesc d = x.d;
  if (!conv2d_supports(device, d, choice)) return false;
  SCOPED_TRACE(describe(d) + " " + choice.config + (pretransformed ? " (pretransformed)" : "") + " precision " +
               std::string(name(choice.precision)) + (residual_in_output ? " (residual in the output)" : "") +
               (misalign ? " misaligned by " + std::to_string(misalign) : ""));
  Buffer<float> input_buffer(device, std::int64_t(x.input.size()) + misalign),
      filter_buffer(device, std::int64_t(x.filter.size()) + misalign);
  float *const input = input_buffer.data() + misalign, *const filter = filter_buffer.data() + misalign;
  Buffer<float> output(device, std::int64_t(x.want.size()) + 1);   // one extra element: must stay NaN
  q.copy(input, x.input.data(), x.input.size());
  q.copy(filter, x.filter.data(), x.filter.size());
  q.fill(output.data(), poison<float>, output.size());
  Buffer<float> bias;
  if (!x.bias.empty()) {
    bias = Buffer<float>(device, std::int64_t(x.bias.size()));
    bias.upload(q, x.bias);
    d.bias = bias.data();
  }
  Buffer<float> residual;
  if (!x.residual.empty() && residual_in_output) {
    q.copy(output.data(), x.residual.data(), x.residual.size());
    d.residual = output.data();
  } else if (!x.residual.empty()) {
    residual = Buffer<float>(device, std::int64_t(x.residual.size()));
    residual.upload(q, x.residual);
    d.residual = residual.data();
  }
  if (pretransformed && choice.algorithm == "winograd") {
    const int tile = choice.config == "winograd/f2" ? 2 : 4;
    const WinogradFilter w = winograd_transform_filter(q, d.in_c, d.out_c, filter, tile);
    conv2d_winograd(q, d, input, w, output.data(), choice.precision);
  } else if (pretransformed) {   // gemm_1x1, im2col, grouped/gemm: the filter packed once
    const Conv2dPackedFilter packed = conv2d_pack_filter(q, d, filter);
    q.fill(filter, poison<float>, x.filter.size());   // the packed filter must not read the original
    conv2d(q, d, input, packed, output.data(), choice);
  } else {
    conv2d(q, d, input, filter, output.data(), choice);
  }
  const auto got = output.download(q);
  const double eps = std::numeric_limits<float>::epsilon() / 2;
  const bool winograd = choice.algorithm == "winograd" || choice.config.starts_with("winograd/");
  const auto& wmag = choice.config == "winograd/f2" ? x.winograd2 : x.winograd4;
  const double terms = double(d.window_h * d.window_w * d.in_c + 2);
  // TF32 rounds each operand of a product to 10 mantissa bits (not Winograd's: its GEMMs stay fp32-accurate).
  const double tf32 = choice.precision == Precision::tf32 ? 0x1p-10 : 0.0;
  for (std::size_t i = 0; i < x.want.size(); ++i) {
    double bound = (2 * eps * terms + tf32) * x.magnitude[i];
    if (winograd) {
      const double e = choice.config == "winograd/f2" ? 8 : 16;
      bound = 2 * (2 * eps * (double(d.in_c) + e) * wmag[i] + 2 * eps * x.magnitude[i]);
    }
    bound += 1e-30;
    if (!(std::abs(double(got[i]) - x.want[i]) <= bound)) {
      ADD_FAILURE() << "output " << i << " (pixel " << i / std::size_t(d.out_c) << ", channel " << i % std::size_t(d.out_c)
                    << "): got " << got[i] << " want " << x.want[i] << " bound " << bound;
      return true;
    }
  }
  EXPECT_TRUE(std::isnan(got.back())) << "wrote past the output";
  return true;
}

inline bool check_conv2d(const Device& device, const ConvData& x, const Conv2dChoice& choice,
                         bool pretransformed = false) {
  Queue q(device);
  return check_conv2d(q, x, choice, pretransformed);
}

// Runs a choice over every case it applies to; fails when it applies to none.
inline void check_all_cases(const Device& device, const Conv2dChoice& choice, bool pretransformed = false) {
  int applied = 0;
  for (const auto& x : conv_data()) applied += check_conv2d(device, x, choice, pretransformed);
  EXPECT_GT(applied, 0) << choice.config << " applies to no test case";
}

// The residual given in the output itself (oneDNN's sum post-op) on every configuration the device instantiates,
// with the filter as it is and, where the choice takes one, packed (Winograd's: transformed) once.
inline void check_residual_in_output(const Device& device) {
  for (const Conv2dChoice& choice : conv2d_space(device)) {
    int applied = 0;
    for (const auto& x : conv_data()) {
      if (x.residual.empty()) continue;
      Queue q(device);
      applied += check_conv2d(q, x, choice, false, true);
      if (choice.algorithm == "winograd" || conv2d_packs_filter(q, choice)) check_conv2d(q, x, choice, true, true);
    }
    EXPECT_GT(applied, 0) << choice.config << " applies to no case with a residual";
  }
}

// ---- pooling ----

inline std::vector<Pool2dDesc> pool_cases() {
  auto p = [](std::int64_t n, std::int64_t h, std::int64_t w, std::int64_t c, std::int64_t wh, std::int64_t ww,
              std::int64_t sh, std::int64_t sw, std::array<std::int64_t, 4> pad) {
    Pool2dDesc d;
    d.batch = n, d.in_h = h, d.in_w = w, d.channels = c, d.window_h = wh, d.window_w = ww, d.stride_h = sh,
    d.stride_w = sw, d.pad_top = pad[0], d.pad_bottom = pad[1], d.pad_left = pad[2], d.pad_right = pad[3];
    return d;
  };
  return {p(1, 8, 8, 3, 2, 2, 2, 2, {0, 0, 0, 0}), p(2, 9, 11, 70, 3, 3, 2, 2, {1, 1, 1, 1}),
          p(1, 7, 6, 5, 3, 3, 1, 1, {1, 1, 1, 1}), p(3, 5, 9, 130, 2, 3, 1, 2, {1, 0, 0, 2}),
          p(1, 13, 13, 1, 5, 5, 3, 3, {2, 2, 2, 2})};
}

inline void check_pool(const Device& device, const Pool2dDesc& desc, bool max) {
  const Pool2dDesc d = pool2d_complete(desc);
  SCOPED_TRACE(std::string(max ? "max" : "avg") + " pool " + std::to_string(d.in_h) + "x" + std::to_string(d.in_w) +
               "x" + std::to_string(d.channels) + " window " + std::to_string(d.window_h) + "x" +
               std::to_string(d.window_w));
  const auto in = random_vector<float>(std::size_t(d.batch * d.in_h * d.in_w * d.channels), 31);
  const std::size_t outputs = std::size_t(d.batch * d.out_h * d.out_w * d.channels);
  Queue q(device);
  Buffer<float> input(device, std::int64_t(in.size())), output(device, std::int64_t(outputs) + 1);
  input.upload(q, in);
  q.fill(output.data(), poison<float>, output.size());
  if (max) max_pool2d(q, d, input.data(), output.data());
  else avg_pool2d(q, d, input.data(), output.data());
  const auto got = output.download(q);
  for (std::int64_t n = 0; n < d.batch; ++n)
    for (std::int64_t oy = 0; oy < d.out_h; ++oy)
      for (std::int64_t ox = 0; ox < d.out_w; ++ox)
        for (std::int64_t c = 0; c < d.channels; ++c) {
          double acc = max ? -1e300 : 0.0;
          int count = 0;
          for (std::int64_t r = 0; r < d.window_h; ++r)
            for (std::int64_t s = 0; s < d.window_w; ++s) {
              const std::int64_t y = oy * d.stride_h + r - d.pad_top, x = ox * d.stride_w + s - d.pad_left;
              if (y < 0 || y >= d.in_h || x < 0 || x >= d.in_w) continue;
              const double v = in[std::size_t(((n * d.in_h + y) * d.in_w + x) * d.channels + c)];
              acc = max ? std::max(acc, v) : acc + v;
              ++count;
            }
          if (!max) acc /= count;
          const std::size_t at = std::size_t(((n * d.out_h + oy) * d.out_w + ox) * d.channels + c);
          ASSERT_NEAR(got[at], acc, 1e-6 * (1 + std::abs(acc)) * (max ? 0 : count)) << "at " << at;
        }
  EXPECT_TRUE(std::isnan(got.back())) << "wrote past the output";
}

}  // namespace portkern::testing
