// The whole-network test bed, shared by the CPU and GPU tests: reduced-size networks of the same layer kinds
// as VGG-16 and ResNet-50 (batch norm folded into convolutions, residual adds, strided and padded pooling,
// linear layers reading a flattened feature map) and a float64 forward pass written from PyTorch's
// definitions (NCHW, OIHW weights, channel-major flattening) that portkern::net::Network is compared with.
#pragma once

#include <cmath>
#include <limits>

#include "portkern/net.hpp"
#include "testing.hpp"

namespace portkern::testing {

using net::Layer;
using net::LayerKind;
using net::Model;
using net::Weights;

inline Layer conv_layer(std::string name, std::string bn, int input, std::int64_t out, std::int64_t window,
                        std::int64_t stride, std::int64_t padding, bool relu, bool bias = false, int residual = -1) {
  Layer l;
  l.kind = LayerKind::conv, l.name = std::move(name), l.batch_norm = std::move(bn), l.bias = bias;
  l.input = input, l.residual = residual, l.relu = relu;
  l.out_channels = out, l.window = window, l.stride = stride, l.padding = padding;
  return l;
}

inline Layer pool_layer(LayerKind kind, std::string name, int input, std::int64_t window = 1, std::int64_t stride = 1,
                        std::int64_t padding = 0) {
  Layer l;
  l.kind = kind, l.name = std::move(name), l.input = input, l.window = window, l.stride = stride, l.padding = padding;
  return l;
}

inline Layer linear_layer(std::string name, int input, std::int64_t out, bool relu) {
  Layer l;
  l.kind = LayerKind::linear, l.name = std::move(name), l.input = input, l.out_channels = out, l.relu = relu,
  l.bias = true;
  return l;
}

// ResNet's layer kinds at a small size: a strided 7x7-like stem, a padded strided max pool, a bottleneck with
// a strided downsample and a residual add, a 3x3 stride-1 convolution (Winograd's case), global pooling.
inline Model tiny_resnet() {
  Model m;
  m.name = "tiny_resnet", m.image = 23, m.channels = 3, m.classes = 10;
  m.layers.push_back(conv_layer("conv1", "bn1", -1, 8, 5, 2, 2, true));                // 0: 12x12x8
  m.layers.push_back(pool_layer(LayerKind::max_pool, "maxpool", 0, 3, 2, 1));          // 1: 6x6x8
  m.layers.push_back(conv_layer("b.down", "b.down_bn", 1, 24, 1, 2, 0, false));        // 2: 3x3x24
  m.layers.push_back(conv_layer("b.conv1", "b.bn1", 1, 6, 1, 1, 0, true));             // 3: 6x6x6
  m.layers.push_back(conv_layer("b.conv2", "b.bn2", 3, 6, 3, 2, 1, true));             // 4: 3x3x6
  m.layers.push_back(conv_layer("b.conv3", "b.bn3", 4, 24, 1, 1, 0, true, false, 2));  // 5: 3x3x24
  m.layers.push_back(conv_layer("c.conv", "", 5, 20, 3, 1, 1, true, true));            // 6: 3x3x20
  m.layers.push_back(pool_layer(LayerKind::global_pool, "avgpool", 6));                // 7: 1x1x20
  m.layers.push_back(linear_layer("fc", 7, 10, false));                                // 8
  return m;
}

// VGG's kinds: padded 3x3 convolutions with bias and ReLU, 2x2 pools, linear layers on a flattened map.
inline Model tiny_vgg() {
  Model m;
  m.name = "tiny_vgg", m.image = 16, m.channels = 3, m.classes = 7;
  m.layers.push_back(conv_layer("features.0", "", -1, 8, 3, 1, 1, true, true));
  m.layers.push_back(pool_layer(LayerKind::max_pool, "features.2", 0, 2, 2));
  m.layers.push_back(conv_layer("features.3", "", 1, 12, 3, 1, 1, true, true));
  m.layers.push_back(pool_layer(LayerKind::max_pool, "features.5", 2, 2, 2));  // 4x4x12
  m.layers.push_back(linear_layer("classifier.0", 3, 33, true));
  m.layers.push_back(linear_layer("classifier.3", 4, 7, false));
  return m;
}

// ---- the float64 reference: PyTorch's semantics, NCHW ------------------------------------------------------

struct Map {
  std::int64_t c = 0, h = 0, w = 0;
  std::vector<double> v;  // one image, c x h x w
  double& at(std::int64_t ci, std::int64_t y, std::int64_t x) { return v[std::size_t((ci * h + y) * w + x)]; }
};

inline std::vector<double> reference_logits(const Model& m, const Weights& w, const std::vector<float>& image_nhwc) {
  Map image{m.channels, m.image, m.image, std::vector<double>(std::size_t(m.channels * m.image * m.image))};
  for (std::int64_t y = 0; y < m.image; ++y)
    for (std::int64_t x = 0; x < m.image; ++x)
      for (std::int64_t c = 0; c < m.channels; ++c)
        image.at(c, y, x) = image_nhwc[std::size_t((y * m.image + x) * m.channels + c)];
  std::vector<Map> out;
  for (const Layer& l : m.layers) {
    Map in = l.input < 0 ? image : out[std::size_t(l.input)];
    Map o;
    if (l.kind == LayerKind::conv || l.kind == LayerKind::max_pool) {
      o.h = (in.h + 2 * l.padding - l.window) / l.stride + 1, o.w = (in.w + 2 * l.padding - l.window) / l.stride + 1;
      o.c = l.kind == LayerKind::conv ? l.out_channels : in.c;
      o.v.assign(std::size_t(o.c * o.h * o.w), 0);
      for (std::int64_t k = 0; k < o.c; ++k)
        for (std::int64_t y = 0; y < o.h; ++y)
          for (std::int64_t x = 0; x < o.w; ++x) {
            double acc = l.kind == LayerKind::conv ? 0 : -std::numeric_limits<double>::infinity();
            for (std::int64_t r = 0; r < l.window; ++r)
              for (std::int64_t s = 0; s < l.window; ++s) {
                const std::int64_t iy = y * l.stride + r - l.padding, ix = x * l.stride + s - l.padding;
                if (iy < 0 || iy >= in.h || ix < 0 || ix >= in.w) continue;
                if (l.kind == LayerKind::max_pool) {
                  acc = std::max(acc, in.at(k, iy, ix));
                  continue;
                }
                const auto& f = w.at(l.name + ".weight").data;
                for (std::int64_t c = 0; c < in.c; ++c)
                  acc += double(f[std::size_t(((k * in.c + c) * l.window + r) * l.window + s)]) * in.at(c, iy, ix);
              }
            if (l.kind == LayerKind::conv) {
              if (l.bias) acc += w.at(l.name + ".bias").data[std::size_t(k)];
              if (!l.batch_norm.empty()) {
                auto p = [&](const char* n) { return double(w.at(l.batch_norm + n).data[std::size_t(k)]); };
                acc = (acc - p(".running_mean")) / std::sqrt(p(".running_var") + 1e-5) * p(".weight") + p(".bias");
              }
              if (l.residual >= 0) acc += out[std::size_t(l.residual)].at(k, y, x);
              if (l.relu) acc = std::max(acc, 0.0);
            }
            o.at(k, y, x) = acc;
          }
    } else if (l.kind == LayerKind::global_pool) {
      o = {in.c, 1, 1, std::vector<double>(std::size_t(in.c), 0)};
      for (std::int64_t c = 0; c < in.c; ++c) {
        for (std::int64_t p = 0; p < in.h * in.w; ++p) o.v[std::size_t(c)] += in.v[std::size_t(c * in.h * in.w + p)];
        o.v[std::size_t(c)] /= double(in.h * in.w);
      }
    } else {  // linear on PyTorch's flattening: in.v is already c-major
      const std::int64_t features = std::int64_t(in.v.size());
      o = {l.out_channels, 1, 1, std::vector<double>(std::size_t(l.out_channels), 0)};
      const auto& f = w.at(l.name + ".weight").data;
      for (std::int64_t j = 0; j < l.out_channels; ++j) {
        double acc = w.at(l.name + ".bias").data[std::size_t(j)];
        for (std::int64_t i = 0; i < features; ++i)
          acc += double(f[std::size_t(j * features + i)]) * in.v[std::size_t(i)];
        o.v[std::size_t(j)] = l.relu ? std::max(acc, 0.0) : acc;
      }
    }
    out.push_back(std::move(o));
  }
  return out.back().v;
}

// Runs `m` on `queue` for `batch` random images and compares every logit with the float64 reference:
// |ours - ref| <= 1e-4 * (1 + max |ref|) over the image (Winograd and fp32 accumulation stay far below).
// Three passes: other images first, then these twice with the logits poisoned in between (on a GPU the
// second pass is recorded as a CUDA graph and the third replays it: both must read the input anew and write
// every logit).
inline void expect_matches_reference(Queue& queue, const Model& m, const Weights& w, std::int64_t batch,
                                     const net::Engine& engine = net::library_engine()) {
  net::Network network(queue, m, w, batch, engine);
  const std::int64_t per_image = m.image * m.image * m.channels;
  const auto images = random_vector<float>(std::size_t(batch * per_image), 11);
  const auto others = random_vector<float>(images.size(), 12);
  queue.copy(network.input(), others.data(), others.size());
  network.forward();
  queue.copy(network.input(), images.data(), images.size());
  network.forward();
  std::vector<float> logits(std::size_t(batch * m.classes), poison<float>);
  queue.copy(const_cast<float*>(network.logits()), logits.data(), logits.size());
  network.forward();  // a pass leaves nothing behind that changes the next
  queue.copy(logits.data(), network.logits(), logits.size());
  queue.wait();
  for (std::int64_t b = 0; b < batch; ++b) {
    const std::vector<float> image(images.begin() + b * per_image, images.begin() + (b + 1) * per_image);
    const std::vector<double> want = reference_logits(m, w, image);
    double scale = 0;
    for (double v : want) scale = std::max(scale, std::abs(v));
    for (std::int64_t j = 0; j < m.classes; ++j) {
      const double got = logits[std::size_t(b * m.classes + j)];
      EXPECT_LE(std::abs(got - want[std::size_t(j)]), 1e-4 * (1 + scale))
          << m.name << " image " << b << " logit " << j << ": " << got << " vs " << want[std::size_t(j)];
    }
  }
}

}  // namespace portkern::testing
