// cuDNN on a GPU: NHWC input and output, the filter transposed once from RSCK into cuDNN's NHWC filter
// layout (K x R x S x C), math type CUDNN_FMA_MATH (plain fp32, no TF32), and the fastest algorithm that
// cudnnFindConvolutionForwardAlgorithm measures, with its workspace; all set up before timing.
#include "bench/vendor_conv2d.hpp"

#if PORTKERN_HAVE_CUDA && PORTKERN_HAVE_CUDNN
#include <cudnn.h>

#include <memory>

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

struct CudnnLayer {
  cudnnHandle_t handle = nullptr;
  cudnnTensorDescriptor_t x = nullptr, y = nullptr;
  cudnnFilterDescriptor_t w = nullptr;
  cudnnConvolutionDescriptor_t conv = nullptr;
  cudnnConvolutionFwdAlgo_t algo{};
  Buffer<float> filter_krsc, workspace;
  const float* input = nullptr;
  float* output = nullptr;
  ~CudnnLayer() {
    if (x) cudnnDestroyTensorDescriptor(x);
    if (y) cudnnDestroyTensorDescriptor(y);
    if (w) cudnnDestroyFilterDescriptor(w);
    if (conv) cudnnDestroyConvolutionDescriptor(conv);
    if (handle) cudnnDestroy(handle);
  }
};

std::function<void()> prepare_cudnn(Queue& q, const Conv2dDesc& desc, const float* input, const float* filter,
                                    float* output, std::string* impl) {
  const Conv2dDesc d = conv2d_complete(desc);
  if (d.pad_top != d.pad_bottom || d.pad_left != d.pad_right) return nullptr;   // cuDNN pads symmetrically
  auto layer = std::make_shared<CudnnLayer>();
  layer->input = input;
  layer->output = output;
  CUDNN_CHECK(cudnnCreate(&layer->handle));
  CUDNN_CHECK(cudnnSetStream(layer->handle, static_cast<cudaStream_t>(q.native_stream())));
  CUDNN_CHECK(cudnnCreateTensorDescriptor(&layer->x));
  CUDNN_CHECK(cudnnCreateTensorDescriptor(&layer->y));
  CUDNN_CHECK(cudnnCreateFilterDescriptor(&layer->w));
  CUDNN_CHECK(cudnnCreateConvolutionDescriptor(&layer->conv));
  CUDNN_CHECK(cudnnSetTensor4dDescriptor(layer->x, CUDNN_TENSOR_NHWC, CUDNN_DATA_FLOAT, int(d.batch), int(d.in_c),
                                         int(d.in_h), int(d.in_w)));
  CUDNN_CHECK(cudnnSetTensor4dDescriptor(layer->y, CUDNN_TENSOR_NHWC, CUDNN_DATA_FLOAT, int(d.batch), int(d.out_c),
                                         int(d.out_h), int(d.out_w)));
  CUDNN_CHECK(cudnnSetFilter4dDescriptor(layer->w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NHWC, int(d.out_c), int(d.in_c),
                                         int(d.window_h), int(d.window_w)));
  CUDNN_CHECK(cudnnSetConvolution2dDescriptor(layer->conv, int(d.pad_top), int(d.pad_left), int(d.stride_h),
                                              int(d.stride_w), int(d.dilation_h), int(d.dilation_w),
                                              CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT));
  CUDNN_CHECK(cudnnSetConvolutionMathType(layer->conv, CUDNN_FMA_MATH));
  // RSCK -> KRSC, once, through the host.
  const std::int64_t rs = d.window_h * d.window_w, count = rs * d.in_c * d.out_c;
  std::vector<float> rsck(static_cast<std::size_t>(count)), krsc(static_cast<std::size_t>(count));
  q.copy(rsck.data(), filter, rsck.size());
  q.wait();
  for (std::int64_t p = 0; p < rs; ++p)
    for (std::int64_t c = 0; c < d.in_c; ++c)
      for (std::int64_t k = 0; k < d.out_c; ++k)
        krsc[std::size_t((k * rs + p) * d.in_c + c)] = rsck[std::size_t((p * d.in_c + c) * d.out_c + k)];
  layer->filter_krsc = Buffer<float>(q.device(), count);
  layer->filter_krsc.upload(q, krsc);
  cudnnConvolutionFwdAlgoPerf_t perf[CUDNN_CONVOLUTION_FWD_ALGO_COUNT];
  int returned = 0;
  CUDNN_CHECK(cudnnFindConvolutionForwardAlgorithm(layer->handle, layer->x, layer->w, layer->conv, layer->y,
                                                   CUDNN_CONVOLUTION_FWD_ALGO_COUNT, &returned, perf));
  int best = -1;
  for (int i = 0; i < returned && best < 0; ++i)
    if (perf[i].status == CUDNN_STATUS_SUCCESS && perf[i].mathType != CUDNN_TENSOR_OP_MATH) best = i;
  if (best < 0) return nullptr;
  layer->algo = perf[best].algo;
  if (perf[best].memory > 0) layer->workspace = Buffer<float>(q.device(), std::int64_t(perf[best].memory / 4 + 1));
  if (impl) *impl = "algo " + std::to_string(int(layer->algo));
  return [layer] {
    const float one = 1.f, zero = 0.f;
    CUDNN_CHECK(cudnnConvolutionForward(layer->handle, &one, layer->x, layer->input, layer->w,
                                        layer->filter_krsc.data(), layer->conv, layer->algo, layer->workspace.data(),
                                        layer->workspace.size() * sizeof(float), &zero, layer->y, layer->output));
  };
}

}  // namespace

std::vector<VendorConv2d> cuda_vendor_conv2d() { return {{"cudnn", prepare_cudnn}}; }
#else
std::vector<VendorConv2d> cuda_vendor_conv2d() { return {}; }
#endif

}  // namespace portkern::bench
