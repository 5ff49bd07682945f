// Included by the files that instantiate kernels for a back end (kernels.cpp: the CPU; kernels.cu, which
// includes kernels.cpp: CUDA):
// PORTKERN_CONV2D_LAUNCHABLE(Kernel) defines launch_cpu<Kernel> or launch_cuda<Kernel> (backends.hpp) for the
// back end the including file is compiled for.
#pragma once

#include "conv2d/backends.hpp"

#if defined(__CUDACC__)
#include "portkern/kernel/cuda.cuh"

namespace portkern::conv2d_impl {
template <class Kernel>
void launch_cuda(const Queue& queue, const Kernel& kernel) {
  kernel::cuda::launch(queue, kernel.groups(), kernel);
}
}  // namespace portkern::conv2d_impl

#define PORTKERN_CONV2D_LAUNCHABLE(...) \
  template void portkern::conv2d_impl::launch_cuda<__VA_ARGS__>(const portkern::Queue&, const __VA_ARGS__&);
#else
#include "portkern/kernel/cpu.hpp"

namespace portkern::conv2d_impl {
template <class Kernel>
void launch_cpu(const Queue& queue, const Kernel& kernel) {
  kernel::cpu::launch(queue, kernel.groups(), kernel);
}
}  // namespace portkern::conv2d_impl

#define PORTKERN_CONV2D_LAUNCHABLE(...) \
  template void portkern::conv2d_impl::launch_cpu<__VA_ARGS__>(const portkern::Queue&, const __VA_ARGS__&);
#endif
