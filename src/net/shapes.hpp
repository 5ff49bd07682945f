// The activation shape after each layer of a model (per image: rows, columns, channels), as PyTorch computes
// it (floor division for convolutions and pooling).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "portkern/error.hpp"
#include "portkern/net.hpp"

namespace portkern::net_impl {

struct Activation {
  std::int64_t h = 0, w = 0, c = 0;
  std::int64_t pixels() const { return h * w; }
  std::int64_t elements() const { return h * w * c; }
};

inline std::vector<Activation> activation_shapes(const net::Model& model) {
  const char* fn = "portkern::net::Network";
  std::vector<Activation> shapes;
  const Activation image{model.image, model.image, model.channels};
  for (std::size_t i = 0; i < model.layers.size(); ++i) {
    const net::Layer& l = model.layers[i];
    require(l.input >= -1 && l.input < int(i), fn, "model.layers[" + std::to_string(i) + "].input", l.input,
            "an earlier layer or -1 (the image)");
    require(l.residual >= -1 && l.residual < int(i), fn, "model.layers[" + std::to_string(i) + "].residual", l.residual,
            "an earlier layer or -1 (none)");
    const Activation in = l.input < 0 ? image : shapes[std::size_t(l.input)];
    Activation out = in;
    switch (l.kind) {
      case net::LayerKind::conv:
      case net::LayerKind::max_pool: {
        require(l.window >= 1 && l.stride >= 1 && l.padding >= 0, fn, "layer " + l.name + "'s window, stride, padding",
                std::to_string(l.window) + ", " + std::to_string(l.stride) + ", " + std::to_string(l.padding),
                ">= 1, >= 1, >= 0");
        out.h = (in.h + 2 * l.padding - l.window) / l.stride + 1;
        out.w = (in.w + 2 * l.padding - l.window) / l.stride + 1;
        require(out.h >= 1 && out.w >= 1, fn, "layer " + l.name + "'s input size",
                std::to_string(in.h) + "x" + std::to_string(in.w), "at least its window");
        if (l.kind == net::LayerKind::conv) out.c = l.out_channels;
        break;
      }
      case net::LayerKind::global_pool:
        out = {1, 1, in.c};
        break;
      case net::LayerKind::linear:
        out = {1, 1, l.out_channels};
        break;
    }
    if (l.residual >= 0) {
      const Activation r = shapes[std::size_t(l.residual)];
      require(r.h == out.h && r.w == out.w && r.c == out.c, fn, "layer " + l.name + "'s residual shape",
              std::to_string(r.h) + "x" + std::to_string(r.w) + "x" + std::to_string(r.c), "its output's shape");
    }
    shapes.push_back(out);
  }
  return shapes;
}

}  // namespace portkern::net_impl
