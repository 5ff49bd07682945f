// attention on each back end: the portable kernels (CPU, CUDA) and the hand-written CUDA twin, which exists
// only for `portkern bench ops` (the portable/native ratio). `vector`: the float4 path (d % 4 == 0 and every
// pointer 16-byte aligned).
#pragma once

#include "ops/attention/plan.hpp"
#include "portkern/runtime/queue.hpp"

namespace portkern::ops::attention_impl {

void portable_cpu(Queue& queue, const Plan& plan, bool vector, const float* K, const float* V, const float* q,
                  float* out, float* workspace);
void portable_cuda(Queue& queue, const Plan& plan, bool vector, const float* K, const float* V, const float* q,
                   float* out, float* workspace);
void native_cuda(Queue& queue, const Plan& plan, bool vector, const float* K, const float* V, const float* q,
                 float* out, float* workspace);

}  // namespace portkern::ops::attention_impl
