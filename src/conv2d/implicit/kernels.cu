// The `implicit` algorithm's instantiated configurations for the CUDA back end.
#include "conv2d/implicit/instantiated.hpp"
#include "portkern/kernel/cuda.cuh"

namespace portkern::conv2d_impl {

bool run_implicit_cuda(const Queue& queue, std::string_view config, const ConvArgs& args) {
  return with_implicit_conv<implicit_cuda_instantiated>(
      config, args, [&](const auto& kernel) { kernel::cuda::launch(queue, kernel.groups(), kernel); });
}

}  // namespace portkern::conv2d_impl
