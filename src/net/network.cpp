// The graph runner (portkern/net.hpp): weights prepared once, activation buffers planned once, each layer
// bound to its buffers; forward() submits the prepared calls in order.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>

#include "conv2d/backends.hpp"
#include "conv2d/epilogue.hpp"
#include "net/layer_timing.hpp"
#include "net/shapes.hpp"
#include "portkern/blas.hpp"
#include "portkern/checked.hpp"
#include "portkern/error.hpp"
#include "portkern/net.hpp"
#include "runtime/cuda/cuda_backend.hpp"
#include "runtime/scratch.hpp"

namespace portkern::net {

namespace {

constexpr const char* network_fn = "portkern::net::Network";
constexpr float batch_norm_epsilon = 1e-5f;  // torchvision's BatchNorm2d default

const HostTensor& weight(const Weights& w, const std::string& name, const std::vector<std::int64_t>& shape) {
  auto shape_text = [](const std::vector<std::int64_t>& s) {
    std::string t = "[";
    for (std::size_t i = 0; i < s.size(); ++i) t += (i ? ", " : "") + std::to_string(s[i]);
    return t + "]";
  };
  const auto it = w.find(name);
  if (it == w.end())
    fail(network_fn, "the weights have no tensor '" + name + "' (expected shape " + shape_text(shape) + ")");
  if (it->second.shape != shape)
    fail(network_fn,
         "weight '" + name + "' has shape " + shape_text(it->second.shape) + ", expected " + shape_text(shape));
  return it->second;
}

std::string conv_text(const Conv2dDesc& d) {
  auto s = [](std::int64_t v) { return std::to_string(v); };
  return "conv " + s(d.window_h) + "x" + s(d.window_w) + "/" + s(d.stride_h) + " " + s(d.in_h) + "x" + s(d.in_w) + "x" +
         s(d.in_c) + "->" + s(d.out_c);
}

}  // namespace

void bias_residual_relu(Queue& queue, std::int64_t rows, std::int64_t channels, float* data, const float* bias,
                        const float* residual, bool relu) {
  const char* fn = "portkern::net::bias_residual_relu";
  require(rows >= 0, fn, "rows", rows, ">= 0");
  require(channels >= 0, fn, "channels", channels, ">= 0");
  if (rows == 0 || channels == 0 || (!bias && !residual && !relu)) return;
  queue.check_pointer(data, fn, "data");
  if (bias) queue.check_pointer(bias, fn, "bias");
  if (residual) queue.check_pointer(residual, fn, "residual");
  conv2d_impl::launch(queue, conv2d_impl::BiasRelu{rows, channels, data, bias, residual, relu});
}

std::string_view name(LayerPick pick) { return pick == LayerPick::tree ? "tree" : "timed"; }

LayerPick parse_layer_pick(std::string_view text) {
  for (LayerPick pick : {LayerPick::tree, LayerPick::timed})
    if (text == name(pick)) return pick;
  throw Error("portkern::net::parse_layer_pick: unknown layer pick '" + std::string(text) + "' (tree or timed)");
}

namespace {

// A convolution's call with one configuration, its filter transformed (Winograd) or packed (GEMM-based
// algorithms on the CPU) once where the configuration wants it. `packed` is the layer's packed filter, made by
// the first configuration that multiplies by it and shared by the others.
std::function<void()> conv_call(Queue& q, const Conv2dDesc& d, const float* input, const float* filter,
                                float* output, const Conv2dChoice& choice,
                                std::shared_ptr<const Conv2dPackedFilter>& packed) {
  if (choice.algorithm == "winograd") {
    auto w = std::make_shared<WinogradFilter>(
        winograd_transform_filter(q, d.in_c, d.out_c, filter, choice.config == "winograd/f2" ? 2 : 4));
    return [&q, d, input, w, output, precision = choice.precision] {
      conv2d_winograd(q, d, input, *w, output, precision);
    };
  }
  if (conv2d_packs_filter(q, choice)) {
    if (!packed) packed = std::make_shared<const Conv2dPackedFilter>(conv2d_pack_filter(q, d, filter));
    return [&q, d, input, packed, output, choice] { conv2d(q, d, input, *packed, output, choice); };
  }
  return [&q, d, input, filter, output, choice] { conv2d(q, d, input, filter, output, choice); };
}

// The deployment's configurations that apply to the layer, the tree's pick first.
std::vector<Conv2dChoice> shipped_candidates(const Device& device, const Conv2dDesc& d, const Conv2dSelection& pick,
                                             Precision precision) {
  std::vector<Conv2dChoice> candidates{{pick.algorithm, pick.config, precision}};
  const Conv2dDeployment deployment = conv2d_deployment(device, precision);
  for (std::size_t a = 0; a < deployment.algorithms.size(); ++a)
    for (const std::string& config : deployment.configs[a]) {
      const Conv2dChoice choice{deployment.algorithms[a], config, precision};
      if (choice.config != pick.config && conv2d_supports(device, d, choice)) candidates.push_back(choice);
    }
  return candidates;
}

}  // namespace

Engine library_engine(Precision precision, LayerPick layer_pick) {
  Engine engine;
  engine.name = "portkern";
  engine.prepare_conv = [precision, layer_pick](Queue& q, const Conv2dDesc& desc, const float* input,
                                                const float* filter, const float* residual,
                                                float* output) -> PreparedConv {
    Conv2dDesc d = conv2d_complete(desc);
    d.residual = residual;   // bias, residual add and ReLU in the convolution's epilogue
    const Conv2dSelection pick = conv2d_select(q.device(), d, precision);
    std::shared_ptr<const Conv2dPackedFilter> packed;
    if (layer_pick == LayerPick::tree)
      return {conv_call(q, d, input, filter, output, {pick.algorithm, pick.config, precision}, packed), pick.config};
    // timed: the output buffer is the layer's own, so the trial runs overwrite nothing a pass still needs
    std::function<void()> fastest;
    std::string fastest_config;
    double fastest_ms = 1e300;
    const std::span<const float> in(input, std::size_t(d.batch * d.in_h * d.in_w * d.in_c));
    const std::span<const float> res(residual, residual ? std::size_t(d.batch * d.out_h * d.out_w * d.out_c) : 0);
    for (const Conv2dChoice& choice : shipped_candidates(q.device(), d, pick, precision)) {
      std::function<void()> call = conv_call(q, d, input, filter, output, choice, packed);
      const double ms = net_impl::in_pass_time_ms(q, call, {in, res});
      if (ms < fastest_ms) fastest_ms = ms, fastest = std::move(call), fastest_config = choice.config;
    }
    return {std::move(fastest), fastest_config};
  };
  // column-major: y (O x batch) = W (O x F, stored as F x O) * x (F x batch)
  engine.prepare_linear = [precision](Queue& q, std::int64_t out, std::int64_t features, std::int64_t batch,
                                      const float* matrix, const float* x, float* y) -> std::function<void()> {
    return [&q, out, features, batch, matrix, x, y, precision] {
      gemm<float>(q, Op::trans, Op::none, out, batch, features, 1.f, matrix, features, x, features, 0.f, y, out,
                  {"", "", precision});
    };
  };
  return engine;
}

struct Network::State {
  Queue* queue;
  Model model;
  std::int64_t batch;
  std::vector<Buffer<float>> weights;      // every prepared weight, kept for the network's life
  std::vector<Buffer<float>> activations;  // the planned buffers
  Buffer<float> input;
  std::vector<float*> outputs;               // each layer's output
  std::vector<std::function<void()>> calls;  // each layer's prepared call
  std::vector<std::string> what;
  std::vector<double> gflop;
  std::size_t activation_bytes = 0;
  // The pass as a CUDA graph (forward()), with the scratch pool's generation it was recorded at.
  struct GraphDeleter {
    void operator()(void* graph) const noexcept { detail::cuda::destroy_graph(graph); }
  };
  std::unique_ptr<void, GraphDeleter> graph;
  std::uint64_t graph_generation = 0;
  std::int64_t passes = 0;     // passes run as they are
  bool graphs_work = true;     // false once a capture failed: passes then run as they are

  const float* upload(const std::vector<float>& host, const std::string& purpose) {
    weights.emplace_back(queue->device(), std::int64_t(host.size()), purpose);
    weights.back().upload(*queue, host);
    return weights.back().data();
  }
};

Network::Network(Queue& queue, const Model& model, const Weights& w, std::int64_t batch, const Engine& engine)
    : state_(std::make_unique<State>()) {
  require(batch >= 1, network_fn, "batch", batch, ">= 1");
  require(!model.layers.empty(), network_fn, "model.layers.size()", 0, ">= 1");
  State& s = *state_;
  s.queue = &queue, s.model = model, s.batch = batch;
  const std::vector<net_impl::Activation> shapes = net_impl::activation_shapes(model);
  const net_impl::Activation image{model.image, model.image, model.channels};
  const std::size_t n = model.layers.size();
  s.input = Buffer<float>(queue.device(), checked_mul(batch, image.elements(), network_fn, "batch * image elements"),
                          "the network's input");

  // The plan: a layer's output takes the smallest free buffer that holds it; a buffer is free again once
  // the last layer that reads it has been prepared. The last layer's output (the logits) is never freed.
  std::vector<std::size_t> last_read(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    for (int source : {model.layers[i].input, model.layers[i].residual})
      if (source >= 0) last_read[std::size_t(source)] = std::max(last_read[std::size_t(source)], i);
  }
  last_read[n - 1] = n;
  std::vector<std::size_t> free_buffers, buffer_of(n);
  s.outputs.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::int64_t elements =
        checked_mul(batch, shapes[i].elements(), network_fn, "batch * the elements of " + model.layers[i].name);
    auto best = free_buffers.end();
    for (auto it = free_buffers.begin(); it != free_buffers.end(); ++it)
      if (std::int64_t(s.activations[*it].size()) >= elements &&
          (best == free_buffers.end() || s.activations[*it].size() < s.activations[*best].size()))
        best = it;
    if (best != free_buffers.end()) {
      buffer_of[i] = *best;
      free_buffers.erase(best);
    } else {
      buffer_of[i] = s.activations.size();
      s.activations.emplace_back(queue.device(), elements, "network activations");
      s.activation_bytes += std::size_t(elements) * sizeof(float);
    }
    s.outputs[i] = s.activations[buffer_of[i]].data();
    for (std::size_t j = 0; j <= i; ++j)
      if (last_read[j] == i) free_buffers.push_back(buffer_of[j]);
  }

  for (std::size_t i = 0; i < n; ++i) {
    const Layer& l = model.layers[i];
    const net_impl::Activation in = l.input < 0 ? image : shapes[std::size_t(l.input)], out = shapes[i];
    const float* x = l.input < 0 ? s.input.data() : s.outputs[std::size_t(l.input)];
    float* y = s.outputs[i];
    switch (l.kind) {
      case LayerKind::conv: {
        const std::int64_t K = l.out_channels, C = in.c, R = l.window;
        const HostTensor& f = weight(w, l.name + ".weight", {K, C, R, R});
        std::vector<float> scale(std::size_t(K), 1.f), shift(std::size_t(K), 0.f);
        if (l.bias) {
          const HostTensor& b = weight(w, l.name + ".bias", {K});
          std::copy(b.data.begin(), b.data.end(), shift.begin());
        }
        if (!l.batch_norm.empty()) {  // y = gamma (conv + b - mean) / sqrt(var + eps) + beta
          const auto& gamma = weight(w, l.batch_norm + ".weight", {K}).data;
          const auto& beta = weight(w, l.batch_norm + ".bias", {K}).data;
          const auto& mean = weight(w, l.batch_norm + ".running_mean", {K}).data;
          const auto& var = weight(w, l.batch_norm + ".running_var", {K}).data;
          for (std::size_t k = 0; k < std::size_t(K); ++k) {
            scale[k] = gamma[k] / std::sqrt(var[k] + batch_norm_epsilon);
            shift[k] = beta[k] + (shift[k] - mean[k]) * scale[k];
          }
        }
        std::vector<float> rsck(f.data.size());  // OIHW -> RSCK, scaled
        for (std::int64_t k = 0; k < K; ++k)
          for (std::int64_t c = 0; c < C; ++c)
            for (std::int64_t r = 0; r < R; ++r)
              for (std::int64_t t = 0; t < R; ++t)
                rsck[std::size_t(((r * R + t) * C + c) * K + k)] =
                    f.data[std::size_t(((k * C + c) * R + r) * R + t)] * scale[std::size_t(k)];
        const bool has_shift = l.bias || !l.batch_norm.empty();
        Conv2dDesc d;
        d.batch = batch, d.in_h = in.h, d.in_w = in.w, d.in_c = C, d.out_c = K;
        d.window_h = d.window_w = R, d.stride_h = d.stride_w = l.stride;
        d.pad_top = d.pad_bottom = d.pad_left = d.pad_right = l.padding;
        d.bias = has_shift ? s.upload(shift, "a convolution's bias") : nullptr;
        d.relu = l.relu;
        const float* filter = s.upload(rsck, "a convolution's filter");
        const float* residual = l.residual >= 0 ? s.outputs[std::size_t(l.residual)] : nullptr;
        PreparedConv conv = engine.prepare_conv(queue, d, x, filter, residual, y);
        s.calls.push_back(std::move(conv.run));
        s.what.push_back(conv_text(d) + (residual ? " +residual" : "") + "  " + conv.impl);
        s.gflop.push_back(2e-9 * double(batch * out.pixels() * K * C * R * R));
        break;
      }
      case LayerKind::max_pool:
      case LayerKind::global_pool: {
        Pool2dDesc d;
        d.batch = batch, d.in_h = in.h, d.in_w = in.w, d.channels = in.c;
        const bool global = l.kind == LayerKind::global_pool;
        d.window_h = global ? in.h : l.window, d.window_w = global ? in.w : l.window;
        d.stride_h = d.stride_w = global ? 1 : l.stride;
        d.pad_top = d.pad_bottom = d.pad_left = d.pad_right = global ? 0 : l.padding;
        Queue* q = &queue;
        if (global)
          s.calls.push_back([q, d, x, y] { avg_pool2d(*q, d, x, y); });
        else
          s.calls.push_back([q, d, x, y] { max_pool2d(*q, d, x, y); });
        s.what.push_back(std::string(global ? "global average pool " : "max pool ") + std::to_string(d.window_h) + "x" +
                         std::to_string(d.window_w) + "/" + std::to_string(d.stride_h));
        s.gflop.push_back(0);
        break;
      }
      case LayerKind::linear: {
        const std::int64_t F = in.elements(), O = l.out_channels;
        const HostTensor& f = weight(w, l.name + ".weight", {O, F});
        // PyTorch flattens a feature map channel-major (c, h, w); ours is NHWC (h, w, c).
        std::vector<float> permuted(f.data.size());
        for (std::int64_t o = 0; o < O; ++o)
          for (std::int64_t c = 0; c < in.c; ++c)
            for (std::int64_t p = 0; p < in.pixels(); ++p)
              permuted[std::size_t(o * F + p * in.c + c)] = f.data[std::size_t(o * F + c * in.pixels() + p)];
        const float* matrix = s.upload(permuted, "a linear layer's weights");
        const float* bias = l.bias ? s.upload(weight(w, l.name + ".bias", {O}).data, "a linear layer's bias") : nullptr;
        Queue* q = &queue;
        std::function<void()> product;
        if (engine.prepare_linear) {
          product = engine.prepare_linear(queue, O, F, batch, matrix, x, y);
        } else {  // column-major: y (O x batch) = W (O x F, stored as F x O) * x (F x batch)
          product = [q, O, F, batch, matrix, x, y] {
            gemm<float>(*q, Op::trans, Op::none, O, batch, F, 1.f, matrix, F, x, F, 0.f, y, O);
          };
        }
        s.calls.push_back([q, O, batch, product, bias, y, relu = l.relu] {
          product();
          bias_residual_relu(*q, batch, O, y, bias, nullptr, relu);
        });
        s.what.push_back("linear " + std::to_string(F) + "->" + std::to_string(O));
        s.gflop.push_back(2e-9 * double(batch * F * O));
        break;
      }
    }
  }
  queue.wait();  // the uploads and filter transforms are done before the first forward pass
}

Network::~Network() = default;
Network::Network(Network&&) noexcept = default;
Network& Network::operator=(Network&&) noexcept = default;

std::int64_t Network::batch() const { return state_->batch; }
const Model& Network::model() const { return state_->model; }
float* Network::input() { return state_->input.data(); }
const float* Network::logits() const { return state_->outputs.back(); }
std::size_t Network::activation_bytes() const { return state_->activation_bytes; }

double Network::gflop() const {
  double sum = 0;
  for (double g : state_->gflop) sum += g;
  return sum;
}

// On a GPU the pass is recorded once as a CUDA graph and replayed: one launch instead of one per kernel. The
// first pass runs as it is (plans, workspaces and scratch blocks are made outside a capture), the second is
// captured and launched. The graph holds the addresses of the queue's scratch blocks: it is recorded again
// when the pool allocated or freed a block since (another call on the queue needed more), and a capture that
// allocated is not kept. Where a capture fails (a library call it does not allow) passes run as they are.
void Network::forward() {
  State& s = *state_;
  if (s.queue->device().is_cuda() && s.graphs_work && s.passes > 0) {
    void* stream = s.queue->native_stream();
    const std::uint64_t generation = s.queue->scratch_pool().generation();
    if (s.graph && s.graph_generation == generation) return detail::cuda::launch_graph(s.graph.get(), stream);
    s.graph.reset();
    void* graph = nullptr;
    try {
      graph = detail::cuda::capture_graph(stream, [&] {
        for (const auto& call : s.calls) call();
      });
    } catch (const Error&) {
      graph = nullptr;   // the pass runs as it is below
    }
    if (graph && s.queue->scratch_pool().generation() == generation) {
      s.graph.reset(graph);
      s.graph_generation = generation;
      return detail::cuda::launch_graph(graph, stream);
    }
    if (graph) detail::cuda::destroy_graph(graph);   // a block was allocated while capturing: next pass
    else s.graphs_work = false;
  }
  ++s.passes;
  for (const auto& call : s.calls) call();
}

std::vector<LayerTime> Network::forward_timed() {
  State& s = *state_;
  std::vector<LayerTime> times;
  s.queue->wait();
  for (std::size_t i = 0; i < s.calls.size(); ++i) {
    const auto start = std::chrono::steady_clock::now();
    s.calls[i]();
    s.queue->wait();
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    times.push_back({s.model.layers[i].name, s.what[i], ms, s.gflop[i]});
  }
  return times;
}

}  // namespace portkern::net
