// How the convolution's API reaches a back end: every kernel-model kernel of the operation is instantiated
// once per back end (kernels_cpu.cpp, kernels_cuda.cu) and launched through launch(), which picks the queue's.
#pragma once

#include <string_view>

#include "conv2d/args.hpp"
#include "portkern/runtime/queue.hpp"

namespace portkern::conv2d_impl {

// Defined for the kernel types listed in kernels.hpp (PORTKERN_CONV2D_KERNELS).
template <class Kernel>
void launch_cpu(const Queue& queue, const Kernel& kernel);
template <class Kernel>
void launch_cuda(const Queue& queue, const Kernel& kernel);

template <class Kernel>
void launch(const Queue& queue, const Kernel& kernel) {
  if (queue.device().is_cpu()) return launch_cpu(queue, kernel);
#if PORTKERN_HAVE_CUDA
  launch_cuda(queue, kernel);
#endif
}

// The `tiled` family by configuration name; false when the configuration is not instantiated.
bool run_tiled_cpu(const Queue& queue, std::string_view config, const ConvArgs& args, bool vector_c, bool vector_k);
bool run_tiled_cuda(const Queue& queue, std::string_view config, const ConvArgs& args, bool vector_c, bool vector_k);

inline bool run_tiled(const Queue& queue, std::string_view config, const ConvArgs& args, bool vector_c,
                      bool vector_k) {
  if (queue.device().is_cpu()) return run_tiled_cpu(queue, config, args, vector_c, vector_k);
#if PORTKERN_HAVE_CUDA
  return run_tiled_cuda(queue, config, args, vector_c, vector_k);
#else
  return false;
#endif
}

}  // namespace portkern::conv2d_impl
