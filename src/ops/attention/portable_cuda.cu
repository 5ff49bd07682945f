#include "ops/attention/backends.hpp"
#include "ops/attention/kernel.hpp"
#include "portkern/kernel/cuda.cuh"

namespace portkern::ops::attention_impl {

void portable_cuda(Queue& queue, const Plan& plan, bool vector, const float* K, const float* V, const float* q,
                   float* out, float* workspace) {
  run<kernel::cuda::Backend>(queue, plan, vector, K, V, q, out, workspace);
}

}  // namespace portkern::ops::attention_impl
