#include "ops/glu/backends.hpp"
#include "ops/glu/kernel.hpp"
#include "portkern/kernel/cuda.cuh"

namespace portkern::ops::glu_impl {

void portable_cuda(Queue& queue, const Problem& p, const float* x, float* y) {
  run<kernel::cuda::Backend>(queue, p, x, y);
}

}  // namespace portkern::ops::glu_impl
