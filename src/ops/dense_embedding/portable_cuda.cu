#include "ops/dense_embedding/backends.hpp"
#include "ops/dense_embedding/kernel.hpp"
#include "portkern/kernel/cuda.cuh"

namespace portkern::ops::dense_embedding_impl {

void portable_cuda(Queue& queue, const Plan& plan, const std::int64_t* offsets, const float* input,
                   const float* dense, float* out) {
  run<kernel::cuda::Backend>(queue, plan, offsets, input, dense, out);
}

}  // namespace portkern::ops::dense_embedding_impl
