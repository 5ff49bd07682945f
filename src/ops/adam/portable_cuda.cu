#include "ops/adam/backends.hpp"
#include "ops/adam/kernel.hpp"
#include "portkern/kernel/cuda.cuh"

namespace portkern::ops::adam_impl {

void portable_cuda(Queue& queue, const Params& c, AdamMode mode, std::int64_t count, float* p, float* m, float* v,
                   const float* g) {
  run<kernel::cuda::Backend>(queue, c, mode, count, p, m, v, g);
}

}  // namespace portkern::ops::adam_impl
