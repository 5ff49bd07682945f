// The convolution's kernels instantiated for the CUDA back end.
#include "conv2d/backends.hpp"
#include "conv2d/kernels.hpp"
#include "portkern/kernel/cuda.cuh"

namespace portkern::conv2d_impl {

template <class Kernel>
void launch_cuda(const Queue& queue, const Kernel& kernel) {
  kernel::cuda::launch(queue, kernel.groups(), kernel);
}

#define PORTKERN_CONV2D_INSTANTIATE(...) template void launch_cuda<__VA_ARGS__>(const Queue&, const __VA_ARGS__&);
PORTKERN_CONV2D_KERNELS(PORTKERN_CONV2D_INSTANTIATE)
#undef PORTKERN_CONV2D_INSTANTIATE

bool run_tiled_cuda(const Queue& queue, std::string_view config, const ConvArgs& args, bool vector_c, bool vector_k) {
  return with_tiled_conv(config, args, vector_c, vector_k,
                         [&](const auto& kernel) { kernel::cuda::launch(queue, kernel.groups(), kernel); });
}

}  // namespace portkern::conv2d_impl
