#include "ops/clink/backends.hpp"
#include "ops/clink/kernel.hpp"
#include "portkern/kernel/cuda.cuh"

namespace portkern::ops::clink_impl {

void portable_cuda(Queue& queue, std::int64_t sequences, std::int64_t steps, const ClinkWeights& w, const float* x,
                   float* y) {
  run<kernel::cuda::Backend>(queue, sequences, steps, w, x, y);
}

}  // namespace portkern::ops::clink_impl
