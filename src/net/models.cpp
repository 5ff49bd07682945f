// torchvision's VGG-16 (configuration "D") and ResNet-50 (v1.5: the stride on the 3x3 convolution of a
// bottleneck) as layer lists whose names are torchvision's state-dict prefixes, and their random weights.
#include <cmath>
#include <random>

#include "net/shapes.hpp"
#include "portkern/error.hpp"
#include "portkern/net.hpp"

namespace portkern::net {

namespace {

int add(Model& m, Layer layer) {
  m.layers.push_back(std::move(layer));
  return int(m.layers.size()) - 1;
}

Layer conv(std::string name, std::string bn, int input, std::int64_t out, std::int64_t window, std::int64_t stride,
           std::int64_t padding, bool relu, bool bias = false, int residual = -1) {
  Layer l;
  l.kind = LayerKind::conv, l.name = std::move(name), l.batch_norm = std::move(bn), l.bias = bias;
  l.input = input, l.residual = residual, l.relu = relu;
  l.out_channels = out, l.window = window, l.stride = stride, l.padding = padding;
  return l;
}

}  // namespace

Model vgg16(std::int64_t classes) {
  Model m;
  m.name = "vgg16", m.classes = classes;
  const int widths[] = {64, 64, 0, 128, 128, 0, 256, 256, 256, 0, 512, 512, 512, 0, 512, 512, 512, 0};  // 0: pool
  int last = -1, index = 0;  // index: the position in torchvision's `features` (ReLUs count too)
  for (int w : widths) {
    if (w == 0) {
      Layer pool;
      pool.kind = LayerKind::max_pool, pool.name = "features." + std::to_string(index), pool.input = last;
      pool.window = 2, pool.stride = 2;
      last = add(m, pool);
      index += 1;
    } else {
      last = add(m, conv("features." + std::to_string(index), "", last, w, 3, 1, 1, true, true));
      index += 2;
    }
  }
  // The adaptive average pool to 7x7 is the identity at 224 x 224; dropout is the identity at inference.
  const std::int64_t outs[] = {4096, 4096, classes};
  for (int i = 0; i < 3; ++i) {
    Layer fc;
    fc.kind = LayerKind::linear, fc.name = "classifier." + std::to_string(3 * i), fc.bias = true;
    fc.input = last, fc.relu = i < 2, fc.out_channels = outs[i];
    last = add(m, fc);
  }
  return m;
}

Model resnet50(std::int64_t classes) {
  Model m;
  m.name = "resnet50", m.classes = classes;
  int last = add(m, conv("conv1", "bn1", -1, 64, 7, 2, 3, true));
  Layer pool;
  pool.kind = LayerKind::max_pool, pool.name = "maxpool", pool.input = last;
  pool.window = 3, pool.stride = 2, pool.padding = 1;
  last = add(m, pool);
  const int blocks[] = {3, 4, 6, 3};
  for (int stage = 0; stage < 4; ++stage) {
    const std::int64_t width = std::int64_t(64) << stage, out = 4 * width;
    for (int b = 0; b < blocks[stage]; ++b) {
      const std::string p = "layer" + std::to_string(stage + 1) + "." + std::to_string(b) + ".";
      const std::int64_t stride = b == 0 && stage > 0 ? 2 : 1;
      int identity = last;
      if (b == 0) identity = add(m, conv(p + "downsample.0", p + "downsample.1", last, out, 1, stride, 0, false));
      const int c1 = add(m, conv(p + "conv1", p + "bn1", last, width, 1, 1, 0, true));
      const int c2 = add(m, conv(p + "conv2", p + "bn2", c1, width, 3, stride, 1, true));
      last = add(m, conv(p + "conv3", p + "bn3", c2, out, 1, 1, 0, true, false, identity));
    }
  }
  Layer gap;
  gap.kind = LayerKind::global_pool, gap.name = "avgpool", gap.input = last;
  last = add(m, gap);
  Layer fc;
  fc.kind = LayerKind::linear, fc.name = "fc", fc.bias = true, fc.input = last, fc.out_channels = classes;
  add(m, fc);
  return m;
}

std::vector<std::string> model_names() { return {"vgg16", "resnet50"}; }

Model model_by_name(const std::string& name) {
  if (name == "vgg16") return vgg16();
  if (name == "resnet50") return resnet50();
  fail("portkern::net::model_by_name", "unknown model '" + name + "' (vgg16 or resnet50)");
}

Weights random_weights(const Model& model, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto normal = [&](HostTensor& t, double mean, double stddev) {
    std::normal_distribution<float> d{float(mean), float(stddev)};
    t.data.resize(std::size_t(t.elements()));
    for (float& v : t.data) v = d(rng);
  };
  auto uniform = [&](HostTensor& t, float lo, float hi) {
    std::uniform_real_distribution<float> d{lo, hi};
    t.data.resize(std::size_t(t.elements()));
    for (float& v : t.data) v = d(rng);
  };
  Weights w;
  const std::vector<net_impl::Activation> shapes = net_impl::activation_shapes(model);
  const net_impl::Activation image{model.image, model.image, model.channels};
  for (std::size_t i = 0; i < model.layers.size(); ++i) {
    const Layer& l = model.layers[i];
    const net_impl::Activation in = l.input < 0 ? image : shapes[std::size_t(l.input)];
    if (l.kind == LayerKind::conv) {
      HostTensor& f = w[l.name + ".weight"];
      f.shape = {l.out_channels, in.c, l.window, l.window};
      normal(f, 0, std::sqrt(2.0 / double(l.out_channels * l.window * l.window)));  // kaiming_normal_, fan_out
      if (l.bias) normal(w[l.name + ".bias"] = HostTensor{{l.out_channels}, {}}, 0, 0.01);
      if (!l.batch_norm.empty()) {
        // Near identity, but not at it, so that folding the statistics into the filter is tested.
        const std::vector<std::int64_t> shape{l.out_channels};
        uniform(w[l.batch_norm + ".weight"] = HostTensor{shape, {}}, 0.8f, 1.2f);
        uniform(w[l.batch_norm + ".bias"] = HostTensor{shape, {}}, -0.1f, 0.1f);
        uniform(w[l.batch_norm + ".running_mean"] = HostTensor{shape, {}}, -0.1f, 0.1f);
        uniform(w[l.batch_norm + ".running_var"] = HostTensor{shape, {}}, 0.8f, 1.2f);
      }
    } else if (l.kind == LayerKind::linear) {
      HostTensor& f = w[l.name + ".weight"];
      f.shape = {l.out_channels, in.elements()};
      normal(f, 0, 0.01);
      if (l.bias) normal(w[l.name + ".bias"] = HostTensor{{l.out_channels}, {}}, 0, 0.01);
    }
  }
  return w;
}

}  // namespace portkern::net
