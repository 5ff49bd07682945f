// cuDNN on a GPU at its best, as PyTorch gets it with `cudnn.benchmark = True`, searched more widely than
// PyTorch does (it tries at most 10 configurations): the graph API's engine configurations for the layer
// (heuristics modes instant and B, the fallback list, and every engine of the operation graph with its
// default knobs), each finalised into an execution plan with the workspace it asks for (up to 4 GiB) and
// timed, in both layouts cuDNN offers (NHWC, and NCHW on once-transposed copies of the data). Plans whose
// numerical notes name tensor cores (TF32 for fp32 data) compete only for the TF32 figure; plans that
// down-convert their inputs (fp16) are left out, as PyTorch leaves them out. The fastest fp32 plan is the
// ratio's reference; the fastest plan of all is the TF32 figure, shown beside it.
#include "bench/vendor_conv2d.hpp"

#if PORTKERN_HAVE_CUDA && PORTKERN_HAVE_CUDNN
#include <cuda_runtime.h>
#include <cudnn.h>

#include <array>
#include <cstdlib>
#include <memory>
#include <set>
#include <stdexcept>
#include <utility>

#include "bench/csv_reader.hpp"
#include "bench/measure.hpp"
#include "portkern/error.hpp"
#include "portkern/runtime/buffer.hpp"
#endif

namespace portkern::bench {

#if PORTKERN_HAVE_CUDA && PORTKERN_HAVE_CUDNN
namespace {

void check(cudnnStatus_t status, const char* call) {
  if (status != CUDNN_STATUS_SUCCESS) fail("cuDNN", std::string(call) + " failed: " + cudnnGetErrorString(status));
}
#define CUDNN_CHECK(...) check((__VA_ARGS__), #__VA_ARGS__)

constexpr std::int64_t max_workspace_bytes = std::int64_t(4) << 30;

// Plans a run leaves out, by name ("NCHW eng70,NHWC eng5"; PORTKERN_CUDNN_SKIP). A plan that faults on the GPU
// leaves the CUDA context unusable: the search stops there and names it. cuDNN 9.14's "NCHW eng70" with its
// default knobs wrote 16 bytes to a misaligned address on ResNet-50's conv1_1 at batch 1 (compute-sanitizer;
// docs/benchmarking.md), in a run of data/shapes/conv_stems.csv.
bool skipped(const std::string& plan) {
  static const std::set<std::string> names = [] {
    std::set<std::string> out;
    const char* list = std::getenv("PORTKERN_CUDNN_SKIP");
    for (std::string& name : split_csv_line(list ? list : ""))
      if (!name.empty()) out.insert(std::move(name));
    return out;
  }();
  return names.count(plan) > 0;
}

// A backend descriptor of the graph API, destroyed with its owner.
class Descriptor {
 public:
  explicit Descriptor(cudnnBackendDescriptorType_t type) { CUDNN_CHECK(cudnnBackendCreateDescriptor(type, &d_)); }
  ~Descriptor() {
    if (d_) cudnnBackendDestroyDescriptor(d_);
  }
  Descriptor(Descriptor&& other) noexcept : d_(std::exchange(other.d_, nullptr)) {}
  Descriptor& operator=(Descriptor&&) = delete;
  Descriptor(const Descriptor&) = delete;

  cudnnBackendDescriptor_t get() const { return d_; }
  template <class T>
  Descriptor& set(cudnnBackendAttributeName_t name, cudnnBackendAttributeType_t type, std::int64_t count, const T* values) {
    CUDNN_CHECK(cudnnBackendSetAttribute(d_, name, type, count, values));
    return *this;
  }
  Descriptor& set(cudnnBackendAttributeName_t name, const Descriptor& value) {
    cudnnBackendDescriptor_t raw = value.get();
    return set(name, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &raw);
  }
  Descriptor& finalize() {
    CUDNN_CHECK(cudnnBackendFinalize(d_));
    return *this;
  }
  bool try_finalize() { return cudnnBackendFinalize(d_) == CUDNN_STATUS_SUCCESS; }

 private:
  cudnnBackendDescriptor_t d_ = nullptr;
};

// A 4-D fp32 tensor (dims in cuDNN's order n, c, h, w) in the NHWC or NCHW layout.
Descriptor tensor(std::int64_t uid, std::array<std::int64_t, 4> dims, bool nhwc) {
  const auto [n, c, h, w] = dims;
  const std::array<std::int64_t, 4> strides =
      nhwc ? std::array<std::int64_t, 4>{h * w * c, 1, w * c, c} : std::array<std::int64_t, 4>{c * h * w, h * w, w, 1};
  const cudnnDataType_t type = CUDNN_DATA_FLOAT;
  const std::int64_t alignment = 16;
  Descriptor t(CUDNN_BACKEND_TENSOR_DESCRIPTOR);
  t.set(CUDNN_ATTR_TENSOR_DATA_TYPE, CUDNN_TYPE_DATA_TYPE, 1, &type)
      .set(CUDNN_ATTR_TENSOR_DIMENSIONS, CUDNN_TYPE_INT64, 4, dims.data())
      .set(CUDNN_ATTR_TENSOR_STRIDES, CUDNN_TYPE_INT64, 4, strides.data())
      .set(CUDNN_ATTR_TENSOR_UNIQUE_ID, CUDNN_TYPE_INT64, 1, &uid)
      .set(CUDNN_ATTR_TENSOR_BYTE_ALIGNMENT, CUDNN_TYPE_INT64, 1, &alignment)
      .finalize();
  return t;
}

constexpr std::int64_t uid_x = 1, uid_w = 2, uid_y = 3;

// The layer's operation graph in one layout; the descriptors it references live as long as it does.
struct Graph {
  std::vector<Descriptor> parts;   // x, w, y, convolution, operation
  std::unique_ptr<Descriptor> graph;
};

Graph conv_graph(cudnnHandle_t handle, const Conv2dDesc& d, bool nhwc) {
  Graph g;
  g.parts.push_back(tensor(uid_x, {d.batch, d.in_c, d.in_h, d.in_w}, nhwc));
  // A grouped filter has in_c / groups channels; cuDNN takes the group count from x's channels over w's.
  g.parts.push_back(tensor(uid_w, {d.out_c, d.in_c / d.groups, d.window_h, d.window_w}, nhwc));
  g.parts.push_back(tensor(uid_y, {d.batch, d.out_c, d.out_h, d.out_w}, nhwc));
  const cudnnDataType_t compute = CUDNN_DATA_FLOAT;
  const cudnnConvolutionMode_t mode = CUDNN_CROSS_CORRELATION;
  const std::int64_t spatial = 2, pre[2] = {d.pad_top, d.pad_left}, post[2] = {d.pad_bottom, d.pad_right};
  const std::int64_t dilation[2] = {d.dilation_h, d.dilation_w}, stride[2] = {d.stride_h, d.stride_w};
  Descriptor conv(CUDNN_BACKEND_CONVOLUTION_DESCRIPTOR);
  conv.set(CUDNN_ATTR_CONVOLUTION_COMP_TYPE, CUDNN_TYPE_DATA_TYPE, 1, &compute)
      .set(CUDNN_ATTR_CONVOLUTION_CONV_MODE, CUDNN_TYPE_CONVOLUTION_MODE, 1, &mode)
      .set(CUDNN_ATTR_CONVOLUTION_SPATIAL_DIMS, CUDNN_TYPE_INT64, 1, &spatial)
      .set(CUDNN_ATTR_CONVOLUTION_PRE_PADDINGS, CUDNN_TYPE_INT64, 2, pre)
      .set(CUDNN_ATTR_CONVOLUTION_POST_PADDINGS, CUDNN_TYPE_INT64, 2, post)
      .set(CUDNN_ATTR_CONVOLUTION_DILATIONS, CUDNN_TYPE_INT64, 2, dilation)
      .set(CUDNN_ATTR_CONVOLUTION_FILTER_STRIDES, CUDNN_TYPE_INT64, 2, stride)
      .finalize();
  const float alpha = 1, beta = 0;
  Descriptor op(CUDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR);
  op.set(CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_X, g.parts[0])
      .set(CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_W, g.parts[1])
      .set(CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_Y, g.parts[2])
      .set(CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_CONV_DESC, conv)
      .set(CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_ALPHA, CUDNN_TYPE_FLOAT, 1, &alpha)
      .set(CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_BETA, CUDNN_TYPE_FLOAT, 1, &beta)
      .finalize();
  g.parts.push_back(std::move(conv));
  g.parts.push_back(std::move(op));
  g.graph = std::make_unique<Descriptor>(CUDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR);
  cudnnBackendDescriptor_t ops = g.parts.back().get();
  g.graph->set(CUDNN_ATTR_OPERATIONGRAPH_OPS, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &ops)
      .set(CUDNN_ATTR_OPERATIONGRAPH_HANDLE, CUDNN_TYPE_HANDLE, 1, &handle)
      .finalize();
  return g;
}

// Every engine configuration worth timing: the heuristics' lists, then each engine with default knobs.
std::vector<Descriptor> engine_configs(const Descriptor& graph) {
  std::vector<Descriptor> configs;
  for (const cudnnBackendHeurMode_t mode : {CUDNN_HEUR_MODE_INSTANT, CUDNN_HEUR_MODE_B, CUDNN_HEUR_MODE_FALLBACK}) {
    Descriptor heuristics(CUDNN_BACKEND_ENGINEHEUR_DESCRIPTOR);
    heuristics.set(CUDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, graph).set(CUDNN_ATTR_ENGINEHEUR_MODE, CUDNN_TYPE_HEUR_MODE, 1, &mode);
    if (!heuristics.try_finalize()) continue;
    std::int64_t count = 0;
    if (cudnnBackendGetAttribute(heuristics.get(), CUDNN_ATTR_ENGINEHEUR_RESULTS, CUDNN_TYPE_BACKEND_DESCRIPTOR, 0,
                                 &count, nullptr) != CUDNN_STATUS_SUCCESS)
      continue;
    std::vector<Descriptor> found;
    std::vector<cudnnBackendDescriptor_t> raw;
    for (std::int64_t i = 0; i < count; ++i) raw.push_back(found.emplace_back(CUDNN_BACKEND_ENGINECFG_DESCRIPTOR).get());
    std::int64_t returned = 0;
    if (cudnnBackendGetAttribute(heuristics.get(), CUDNN_ATTR_ENGINEHEUR_RESULTS, CUDNN_TYPE_BACKEND_DESCRIPTOR, count,
                                 &returned, raw.data()) != CUDNN_STATUS_SUCCESS)
      continue;
    for (std::int64_t i = 0; i < returned; ++i) configs.push_back(std::move(found[std::size_t(i)]));
  }
  std::int64_t engines = 0, n = 0;
  if (cudnnBackendGetAttribute(graph.get(), CUDNN_ATTR_OPERATIONGRAPH_ENGINE_GLOBAL_COUNT, CUDNN_TYPE_INT64, 1, &n,
                               &engines) != CUDNN_STATUS_SUCCESS)
    engines = 0;
  for (std::int64_t index = 0; index < engines; ++index) {
    Descriptor engine(CUDNN_BACKEND_ENGINE_DESCRIPTOR);
    engine.set(CUDNN_ATTR_ENGINE_OPERATION_GRAPH, graph).set(CUDNN_ATTR_ENGINE_GLOBAL_INDEX, CUDNN_TYPE_INT64, 1, &index);
    if (!engine.try_finalize()) continue;
    Descriptor config(CUDNN_BACKEND_ENGINECFG_DESCRIPTOR);
    config.set(CUDNN_ATTR_ENGINECFG_ENGINE, engine);
    if (config.try_finalize()) configs.push_back(std::move(config));
  }
  return configs;
}

// An engine configuration's name ("eng28_k2=1_k3=0": engine index and knob choices, as cudnn_frontend names
// them) and its numerical notes.
struct ConfigTraits {
  std::string name;
  bool tensor_cores = false, down_converts = false;
};

ConfigTraits traits_of(const Descriptor& config) {
  ConfigTraits t;
  Descriptor engine(CUDNN_BACKEND_ENGINE_DESCRIPTOR);
  cudnnBackendDescriptor_t raw_engine = engine.get();
  std::int64_t n = 0, index = -1;
  CUDNN_CHECK(cudnnBackendGetAttribute(config.get(), CUDNN_ATTR_ENGINECFG_ENGINE, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &n,
                                       &raw_engine));
  CUDNN_CHECK(cudnnBackendGetAttribute(raw_engine, CUDNN_ATTR_ENGINE_GLOBAL_INDEX, CUDNN_TYPE_INT64, 1, &n, &index));
  t.name = "eng" + std::to_string(index);
  cudnnBackendNumericalNote_t notes[CUDNN_NUMERICAL_NOTE_TYPE_COUNT];
  std::int64_t count = 0;
  if (cudnnBackendGetAttribute(raw_engine, CUDNN_ATTR_ENGINE_NUMERICAL_NOTE, CUDNN_TYPE_NUMERICAL_NOTE,
                               CUDNN_NUMERICAL_NOTE_TYPE_COUNT, &count, notes) == CUDNN_STATUS_SUCCESS)
    for (std::int64_t i = 0; i < count; ++i) {
      t.tensor_cores |= notes[i] == CUDNN_NUMERICAL_NOTE_TENSOR_CORE;
      t.down_converts |= notes[i] == CUDNN_NUMERICAL_NOTE_DOWN_CONVERT_INPUTS;
    }
  std::vector<Descriptor> choices;
  std::vector<cudnnBackendDescriptor_t> raw;
  for (int i = 0; i < CUDNN_KNOB_TYPE_COUNTS; ++i)
    raw.push_back(choices.emplace_back(CUDNN_BACKEND_KNOB_CHOICE_DESCRIPTOR).get());
  if (cudnnBackendGetAttribute(config.get(), CUDNN_ATTR_ENGINECFG_KNOB_CHOICES, CUDNN_TYPE_BACKEND_DESCRIPTOR,
                               CUDNN_KNOB_TYPE_COUNTS, &count, raw.data()) == CUDNN_STATUS_SUCCESS)
    for (std::int64_t i = 0; i < count; ++i) {
      cudnnBackendKnobType_t type{};
      std::int64_t value = 0;
      cudnnBackendGetAttribute(raw[std::size_t(i)], CUDNN_ATTR_KNOB_CHOICE_KNOB_TYPE, CUDNN_TYPE_KNOB_TYPE, 1, &n, &type);
      cudnnBackendGetAttribute(raw[std::size_t(i)], CUDNN_ATTR_KNOB_CHOICE_KNOB_VALUE, CUDNN_TYPE_INT64, 1, &n, &value);
      t.name += "_k" + std::to_string(int(type)) + "=" + std::to_string(value);
    }
  return t;
}

// The layer's data in one layout: NHWC uses the benchmark's own input and output (the filter transposed once
// from RSCK into KRSC); NCHW works on transposed copies and transposes its output back only when asked.
struct LayoutData {
  bool nhwc = true;
  Buffer<float> x, w, y;   // NCHW copies (x, y) and the filter in the layout's order (both layouts)
  const float* input = nullptr;
  float* output = nullptr;
  void* pointers[3] = {};
};

// Host transposition of a 4-D array: `to[...]` in the axis order `order` of `from`'s dims.
std::vector<float> permute(const std::vector<float>& from, std::array<std::int64_t, 4> dims, std::array<int, 4> order) {
  std::array<std::int64_t, 4> to_dims{}, from_stride{};
  for (int i = 0; i < 4; ++i) to_dims[i] = dims[std::size_t(order[std::size_t(i)])];
  from_stride[3] = 1;
  for (int i = 2; i >= 0; --i) from_stride[std::size_t(i)] = from_stride[std::size_t(i + 1)] * dims[std::size_t(i + 1)];
  std::vector<float> to(from.size());
  std::size_t out = 0;
  for (std::int64_t a = 0; a < to_dims[0]; ++a)
    for (std::int64_t b = 0; b < to_dims[1]; ++b)
      for (std::int64_t c = 0; c < to_dims[2]; ++c)
        for (std::int64_t e = 0; e < to_dims[3]; ++e)
          to[out++] = from[std::size_t(a * from_stride[std::size_t(order[0])] + b * from_stride[std::size_t(order[1])] +
                                       c * from_stride[std::size_t(order[2])] + e * from_stride[std::size_t(order[3])])];
  return to;
}

std::vector<float> download(Queue& q, const float* from, std::int64_t count) {
  std::vector<float> host(static_cast<std::size_t>(count));
  q.copy(host.data(), from, host.size());
  q.wait();
  return host;
}

std::unique_ptr<LayoutData> layout_data(Queue& q, const Conv2dDesc& d, bool nhwc, const float* input,
                                        const std::vector<float>& rsck, float* output) {
  auto data = std::make_unique<LayoutData>();
  data->nhwc = nhwc;
  const std::int64_t rs_c_k[4] = {d.window_h, d.window_w, d.in_c / d.groups, d.out_c};
  const std::array<std::int64_t, 4> filter_dims = {rs_c_k[0], rs_c_k[1], rs_c_k[2], rs_c_k[3]};
  // RSCK -> KRSC (NHWC filter) or KCRS (NCHW filter).
  data->w = Buffer<float>(q.device(), std::int64_t(rsck.size()));
  data->w.upload(q, permute(rsck, filter_dims, nhwc ? std::array<int, 4>{3, 0, 1, 2} : std::array<int, 4>{3, 2, 0, 1}));
  if (nhwc) {
    data->input = input;
    data->output = output;
  } else {
    const std::int64_t in_count = d.batch * d.in_h * d.in_w * d.in_c;
    data->x = Buffer<float>(q.device(), in_count);
    data->x.upload(q, permute(download(q, input, in_count), {d.batch, d.in_h, d.in_w, d.in_c}, {0, 3, 1, 2}));
    data->y = Buffer<float>(q.device(), d.batch * d.out_h * d.out_w * d.out_c);
    data->input = data->x.data();
    data->output = data->y.data();
  }
  data->pointers[0] = const_cast<float*>(data->input);
  data->pointers[1] = data->w.data();
  data->pointers[2] = data->output;
  return data;
}

// One finalised plan, ready to run.
struct Plan {
  std::shared_ptr<Descriptor> plan, pack;
  std::string name;
  bool tensor_cores = false;
  double ms = 0;
};

// Everything a prepared layer's calls use; the plans go before the handle they were made with.
struct CudnnLayer {
  cudnnHandle_t handle = nullptr;
  std::vector<std::unique_ptr<LayoutData>> layouts;
  std::vector<std::shared_ptr<Descriptor>> plans;   // the chosen plans and their variant packs
  Buffer<float> workspace;
  ~CudnnLayer() {
    plans.clear();
    if (handle) cudnnDestroy(handle);
  }
};

std::string cudnn_version() {
  const std::size_t v = cudnnGetVersion();
  return "cuDNN " + std::to_string(v / 10000) + "." + std::to_string(v / 100 % 100) + "." + std::to_string(v % 100);
}

// in_place: NHWC plans only, on the caller's tensors (NCHW plans work on copies transposed here).
std::vector<VendorConvCall> prepare_cudnn(Queue& q, const Conv2dDesc& desc, const float* input, const float* filter,
                                          float* output, bool in_place) {
  const Conv2dDesc d = conv2d_complete(desc);
  auto layer = std::make_shared<CudnnLayer>();
  CUDNN_CHECK(cudnnCreate(&layer->handle));
  CUDNN_CHECK(cudnnSetStream(layer->handle, static_cast<cudaStream_t>(q.native_stream())));
  const std::vector<float> rsck = download(q, filter, d.window_h * d.window_w * (d.in_c / d.groups) * d.out_c);

  // Every layout's plans, finalised (a plan that cuDNN refuses, or whose workspace is over the limit, is left out).
  struct Candidate {
    Plan plan;
    std::size_t layout;
    std::int64_t workspace;
  };
  std::vector<Candidate> candidates;
  std::set<std::string> seen;
  std::int64_t workspace_bytes = 0;
  int left_out = 0;   // by PORTKERN_CUDNN_SKIP
  for (const bool nhwc : {true, false}) {
    if (in_place && !nhwc) continue;
    const std::size_t layout = layer->layouts.size();
    layer->layouts.push_back(layout_data(q, d, nhwc, input, rsck, output));
    Graph graph = conv_graph(layer->handle, d, nhwc);
    for (auto& config : engine_configs(*graph.graph)) {
      const ConfigTraits traits = traits_of(config);
      const std::string name = std::string(nhwc ? "NHWC " : "NCHW ") + traits.name;
      if (traits.down_converts || !seen.insert(name).second) continue;
      if (skipped(name)) {
        ++left_out;
        continue;
      }
      auto plan = std::make_shared<Descriptor>(CUDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR);
      plan->set(CUDNN_ATTR_EXECUTION_PLAN_HANDLE, CUDNN_TYPE_HANDLE, 1, &layer->handle)
          .set(CUDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG, config);
      if (!plan->try_finalize()) continue;
      std::int64_t bytes = 0, n = 0;
      CUDNN_CHECK(cudnnBackendGetAttribute(plan->get(), CUDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE, CUDNN_TYPE_INT64, 1,
                                           &n, &bytes));
      if (bytes > max_workspace_bytes) continue;
      workspace_bytes = std::max(workspace_bytes, bytes);
      candidates.push_back({{plan, nullptr, name, traits.tensor_cores, 0}, layout, bytes});
    }
  }
  if (workspace_bytes > 0) layer->workspace = Buffer<float>(q.device(), workspace_bytes / 4 + 1);

  // Time each plan (a plan that fails to run is left out); keep the fastest fp32 plan and the fastest of all.
  const Plan* best = nullptr;
  const Plan* best_any = nullptr;
  for (auto& c : candidates) {
    const LayoutData& data = *layer->layouts[c.layout];
    void* workspace = layer->workspace.data();
    const std::int64_t uids[3] = {uid_x, uid_w, uid_y};
    auto pack = std::make_shared<Descriptor>(CUDNN_BACKEND_VARIANT_PACK_DESCRIPTOR);
    pack->set(CUDNN_ATTR_VARIANT_PACK_DATA_POINTERS, CUDNN_TYPE_VOID_PTR, 3, data.pointers)
        .set(CUDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, CUDNN_TYPE_INT64, 3, uids)
        .set(CUDNN_ATTR_VARIANT_PACK_WORKSPACE, CUDNN_TYPE_VOID_PTR, 1, &workspace);
    if (!pack->try_finalize()) continue;
    c.plan.pack = pack;
    const cudnnBackendDescriptor_t plan = c.plan.plan->get(), variants = pack->get();
    const cudnnStatus_t status = cudnnBackendExecute(layer->handle, plan, variants);
    if (const cudaError_t fault = cudaStreamSynchronize(static_cast<cudaStream_t>(q.native_stream()));
        fault != cudaSuccess)
      // Not a portkern::Error, which the benchmark takes as the vendor declining the layer: the run cannot go on.
      throw std::runtime_error("cuDNN: plan '" + c.plan.name + "' failed on the GPU (" + cudaGetErrorString(fault) +
                               "), which leaves the CUDA context unusable; leave the plan out with "
                               "PORTKERN_CUDNN_SKIP='" + c.plan.name + "'");
    if (status != CUDNN_STATUS_SUCCESS || cudaGetLastError() != cudaSuccess) continue;
    c.plan.ms = measure(q, [&] { cudnnBackendExecute(layer->handle, plan, variants); }, 1.0, 3).median_ms;
    if (!c.plan.tensor_cores && (!best || c.plan.ms < best->ms)) best = &c.plan;
    if (!best_any || c.plan.ms < best_any->ms) best_any = &c.plan;
  }

  std::vector<VendorConvCall> calls;
  const std::string of = " (fastest of " + std::to_string(candidates.size()) + " plans, " +
                         (left_out > 0 ? std::to_string(left_out) + " left out by PORTKERN_CUDNN_SKIP, " : "") +
                         cudnn_version() + ")";
  auto call_of = [&](const Plan& plan, const char* name, const char* precision) {
    const LayoutData* data = nullptr;
    for (const auto& c : candidates)
      if (&c.plan == &plan) data = layer->layouts[c.layout].get();
    VendorConvCall call{name, precision, plan.name + of, nullptr, nullptr, nullptr};
    layer->plans.push_back(plan.plan);
    layer->plans.push_back(plan.pack);
    const cudnnBackendDescriptor_t p = plan.plan->get(), pack = plan.pack->get();
    call.run = [layer, p, pack] { CUDNN_CHECK(cudnnBackendExecute(layer->handle, p, pack)); };
    if (!data->nhwc) {
      // NCHW result -> the benchmark's NHWC output (not timed).
      call.to_output = [layer, data, &q, d, output] {   // layer keeps data alive
        const std::int64_t count = d.batch * d.out_c * d.out_h * d.out_w;
        const auto nhwc = permute(download(q, data->output, count), {d.batch, d.out_c, d.out_h, d.out_w}, {0, 2, 3, 1});
        q.copy(output, nhwc.data(), nhwc.size());
        q.wait();
      };
    }
    return call;
  };
  if (best) calls.push_back(call_of(*best, "cudnn", "ieee"));
  if (best_any) calls.push_back(call_of(*best_any, "cudnn_tf32", "tf32"));
  return calls;
}

}  // namespace

std::vector<VendorConv2d> cuda_vendor_conv2d() {
  return {{"cudnn",
           [](Queue& q, const Conv2dDesc& d, const float* in, const float* f, float* out) {
             return prepare_cudnn(q, d, in, f, out, false);
           },
           [](Queue& q, const Conv2dDesc& d, const float* in, const float* f, float* out) {
             return prepare_cudnn(q, d, in, f, out, true);
           }}};
}
#else
std::vector<VendorConv2d> cuda_vendor_conv2d() { return {}; }
#endif

}  // namespace portkern::bench
