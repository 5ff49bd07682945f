#include "ops/maxpool3d/backends.hpp"
#include "ops/maxpool3d/kernel.hpp"
#include "portkern/kernel/cuda.cuh"

namespace portkern::ops::maxpool3d_impl {

void portable_cuda(Queue& queue, const Plan& plan, const float* in, float* out) {
  run<kernel::cuda::Backend>(queue, plan, in, out);
}

}  // namespace portkern::ops::maxpool3d_impl
