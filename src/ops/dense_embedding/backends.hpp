// dense_embedding on each back end: the portable kernel (CPU, CUDA) and the hand-written CUDA twin (bench only).
#pragma once

#include <cstdint>

#include "ops/dense_embedding/plan.hpp"
#include "portkern/runtime/queue.hpp"

namespace portkern::ops::dense_embedding_impl {

void portable_cpu(Queue& queue, const Plan& plan, const std::int64_t* offsets, const float* input, const float* dense,
                  float* out);
void portable_cuda(Queue& queue, const Plan& plan, const std::int64_t* offsets, const float* input,
                   const float* dense, float* out);
void native_cuda(Queue& queue, const Plan& plan, const std::int64_t* offsets, const float* input, const float* dense,
                 float* out);

}  // namespace portkern::ops::dense_embedding_impl
