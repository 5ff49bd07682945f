// Network layers for the convolution benchmarks and the tuner: the shapes CSV of a network
// (data/shapes/conv_<net>.csv: layer,window,stride,in_h,in_w,in_c,out_h,out_w,out_k), read strictly (every
// size an integer in [1, 2^31 - 1], a descriptor that conv2d_complete accepts, errors naming file, line and
// column), and a layer's descriptor and label.
#pragma once

#include <cstdint>
#include <istream>
#include <string>
#include <vector>

#include "portkern/dnn.hpp"

namespace portkern::bench {

struct ConvLayer {
  std::string name;
  std::int64_t window, stride, in_h, in_w, in_c, out_h, out_w, out_k;
  std::int64_t groups = 1;   // the optional `groups` column (grouped and depthwise layers)
};

// The shapes CSV of a network name (vgg16 -> data/shapes/conv_vgg16.csv); a path is returned as it is.
std::string conv_shapes_path(const std::string& net);

// Reads a shapes CSV at `path`, or from `in` (`source` names it in errors). Error when it has no layer.
std::vector<ConvLayer> read_conv_layers(const std::string& path);
std::vector<ConvLayer> read_conv_layers(std::istream& in, const std::string& source);

// "3x3/1 56x56x64->64": window x window / stride, input rows x columns x channels -> output channels.
std::string layer_label(const ConvLayer& layer);

// The layer as a descriptor: padding 0 where (in - window)/stride + 1 == out, else (window - 1)/2.
Conv2dDesc layer_desc(const ConvLayer& layer, std::int64_t batch);

}  // namespace portkern::bench
