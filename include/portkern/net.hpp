// Whole networks for inference: VGG-16 and ResNet-50 as torchvision defines them, run layer by layer with
// the library's convolution, pooling and GEMM on any device (seed 001, section 6).
//
// A Model is a list of layers in execution order, each naming its weights as torchvision's state dict does
// ("features.0.weight", "layer1.0.bn1.running_var"), so that a safetensors file exported from torchvision
// loads as it is. Network prepares a Model once for a device and a batch size: weights transformed at load
// (convolution filters OIHW -> RSCK with batch norm folded into them and a bias, the first linear layer's
// columns permuted from PyTorch's CHW flattening to our NHWC one, Winograd filters transformed where the
// deployment picks Winograd), every activation buffer planned once (a buffer is reused once its last reader
// has run), each convolution bound to its buffers. forward() then only submits work: no allocation, no host
// synchronisation (the GPU's queue runs it asynchronously).
//
// Layouts: the input is NHWC (batch, 224, 224, 3) in the queue's device memory, normalised as torchvision's
// transforms do; the output is batch x classes logits, row-major, in device memory.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "portkern/dnn.hpp"
#include "portkern/runtime/buffer.hpp"
#include "portkern/runtime/queue.hpp"

namespace portkern::net {

// ---- weights ----------------------------------------------------------------------------------------------

// A float32 tensor on the host, in PyTorch's layout (conv weights OIHW, linear weights [out][in]).
struct HostTensor {
  std::vector<std::int64_t> shape;
  std::vector<float> data;
  std::int64_t elements() const;
};

// Tensors by name.
using Weights = std::map<std::string, HostTensor>;

// Reads a safetensors file (an 8-byte header length, a JSON header, raw little-endian tensors). F32, F16 and
// BF16 tensors are read into float32; any other dtype, a truncated file or an offset outside the data is a
// portkern::Error naming the file and the tensor.
Weights load_safetensors(const std::string& path);
// Writes `weights` as a safetensors file of F32 tensors.
void save_safetensors(const std::string& path, const Weights& weights);

// ---- models -----------------------------------------------------------------------------------------------

enum class LayerKind {
  conv,         // convolution, optionally followed by batch norm; bias, residual add and ReLU in its epilogue
  max_pool,     // max pooling
  global_pool,  // average over all pixels: N x H x W x C -> N x 1 x 1 x C
  linear,       // fully connected: y = x W^T + b (ReLU optional)
};

struct Layer {
  LayerKind kind = LayerKind::conv;
  std::string name;        // the prefix of its weights: "features.0", "layer1.0.conv1", "fc"
  std::string batch_norm;  // conv: the prefix of the batch norm folded into it ("layer1.0.bn1"), or ""
  bool bias = false;       // conv / linear: weights "<name>.bias" exist
  int input = -1;          // the layer whose output it reads (-1: the network's input)
  int residual = -1;       // conv: a layer whose output is added before the ReLU (-1: none)
  bool relu = false;
  std::int64_t out_channels = 0;                     // conv: filters; linear: outputs
  std::int64_t window = 1, stride = 1, padding = 0;  // conv and max_pool (square windows)
};

struct Model {
  std::string name;
  std::int64_t image = 224, channels = 3, classes = 1000;
  std::vector<Layer> layers;  // in execution order; the last one's output is the logits
};

// torchvision's definitions; `classes` outputs. An unknown name is an Error listing the known ones.
Model vgg16(std::int64_t classes = 1000);
Model resnet50(std::int64_t classes = 1000);
Model model_by_name(const std::string& name);
std::vector<std::string> model_names();

// Weights for `model` drawn from a fixed seed as torchvision initialises them (He-normal convolutions,
// batch norm at identity with running statistics drawn near it, so folding is exercised; linear N(0, 0.01)).
Weights random_weights(const Model& model, std::uint64_t seed = 1);

// ---- running ----------------------------------------------------------------------------------------------

// A convolution prepared for its buffers: the call forward() makes, and what it runs ("winograd/f4", a
// vendor's engine), for the per-layer table.
struct PreparedConv {
  std::function<void()> run;
  std::string impl;
};

// How the network's convolutions and linear layers run. prepare_conv() is called once per convolution with
// its final buffers; the descriptor's bias and relu are part of the call, and `residual` (nullptr: none) is
// added to the output before the ReLU. prepare_linear() likewise
// returns y (out x batch, column-major) = W (out x features, stored row-major) * x (features x batch); the
// network adds the bias and the ReLU. An empty prepare_linear: portkern::gemm.
struct Engine {
  std::string name;
  std::function<PreparedConv(Queue&, const Conv2dDesc&, const float* input, const float* filter,
                             const float* residual, float* output)>
      prepare_conv;
  std::function<std::function<void()>(Queue&, std::int64_t out, std::int64_t features, std::int64_t batch,
                                      const float* weights, const float* x, float* y)>
      prepare_linear;
};

// How the library engine picks each convolution's configuration.
//   tree:  the deployment's decision trees (conv2d_select), as a single conv2d call does.
//   timed: every configuration the deployment ships (conv2d_deployment) that applies to the layer is timed
//          once, on the layer's own buffers while the network is prepared, and the fastest is kept (cuDNN's
//          find, PyTorch's cudnn.benchmark). It costs a few runs of each layer at load and is robust where the
//          trees were tuned on another micro-architecture of the device class.
enum class LayerPick { tree, timed };
std::string_view name(LayerPick pick);
LayerPick parse_layer_pick(std::string_view text);   // "tree" or "timed"; an Error naming the value otherwise

// The library's convolution as the deployment picks it (`pick`), Winograd filters transformed once. For the
// single-source path alone, set the queue's GEMM family to "tiled" (Queue::set_gemm_family): the GEMMs
// inside the convolutions and the linear layers then use it.
Engine library_engine(Precision precision = Precision::accurate, LayerPick pick = LayerPick::tree);

// output[r][c] = relu?(output[r][c] + bias[c] + residual[r][c]) for `rows` rows of `channels`; bias and
// residual may be nullptr. The epilogue of a vendor's convolution, and of linear layers.
void bias_residual_relu(Queue& queue, std::int64_t rows, std::int64_t channels, float* data, const float* bias,
                        const float* residual, bool relu);

struct LayerTime {
  std::string name, what;  // what: "conv 3x3/1 56x56x64->64 winograd/f4" and the like
  double ms = 0;
  double gflop = 0;
};

class Network {
 public:
  // Prepares `model` with `weights` for `batch` images on the queue's device. A missing weight, or one of
  // the wrong shape, is an Error naming it and the shape expected.
  Network(Queue& queue, const Model& model, const Weights& weights, std::int64_t batch,
          const Engine& engine = library_engine());
  ~Network();
  Network(Network&&) noexcept;
  Network& operator=(Network&&) noexcept;

  std::int64_t batch() const;
  const Model& model() const;
  // The input buffer (batch x image x image x channels, NHWC) and the logits (batch x classes).
  float* input();
  const float* logits() const;
  // Runs the network once on the queue (asynchronous on a GPU: wait() on the queue before reading logits). On a
  // GPU the second pass is recorded as a CUDA graph that later passes replay (one launch per pass).
  void forward();
  // Runs it layer by layer, waiting after each, and times each layer.
  std::vector<LayerTime> forward_timed();
  // The bytes of device memory the activations take (weights aside).
  std::size_t activation_bytes() const;
  double gflop() const;  // the multiply-adds of one forward pass, as 2 * MACs / 1e9

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace portkern::net
