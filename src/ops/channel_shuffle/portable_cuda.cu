#include "ops/channel_shuffle/backends.hpp"
#include "ops/channel_shuffle/kernel.hpp"
#include "portkern/kernel/cuda.cuh"

namespace portkern::ops::channel_shuffle_impl {

void portable_cuda(Queue& queue, const Plan& plan, const float* in, float* out) {
  run<kernel::cuda::Backend>(queue, plan, in, out);
}

}  // namespace portkern::ops::channel_shuffle_impl
