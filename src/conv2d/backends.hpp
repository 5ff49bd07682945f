// How an algorithm reaches a back end: its kernel-model kernels are instantiated once per back end (each
// algorithm's kernels.cpp and kernels.cu, through launchable.hpp) and launched through launch(), which picks
// the queue's.
#pragma once

#include "conv2d/args.hpp"
#include "portkern/runtime/queue.hpp"

namespace portkern::conv2d_impl {

// Defined for the kernel types named by PORTKERN_CONV2D_LAUNCHABLE (launchable.hpp).
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

}  // namespace portkern::conv2d_impl
