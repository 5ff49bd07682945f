#include "ops/meanshift/backends.hpp"
#include "ops/meanshift/kernel.hpp"
#include "portkern/kernel/cuda.cuh"

namespace portkern::ops::meanshift_impl {

void portable_cuda(Queue& queue, bool tiled, const Params& c, std::int64_t n, const float* in, float* out) {
  run<kernel::cuda::Backend>(queue, tiled, c, n, in, out);
}

}  // namespace portkern::ops::meanshift_impl
