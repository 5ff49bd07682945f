// The `windowed` algorithm's instantiated configurations for the CUDA back end.
#include "conv2d/windowed/instantiated.hpp"
#include "portkern/kernel/cuda.cuh"

namespace portkern::conv2d_impl {

bool run_windowed_cuda(const Queue& queue, std::string_view config, const ConvArgs& args, bool vector_k) {
  return with_windowed_conv(config, args, vector_k,
                            [&](const auto& kernel) { kernel::cuda::launch(queue, kernel.groups(), kernel); });
}

}  // namespace portkern::conv2d_impl
