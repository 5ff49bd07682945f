// maxpool3d on each back end: the portable kernel (CPU, CUDA) and the hand-written CUDA twin (bench only).
#pragma once

#include "ops/maxpool3d/plan.hpp"
#include "portkern/runtime/queue.hpp"

namespace portkern::ops::maxpool3d_impl {

void portable_cpu(Queue& queue, const Plan& plan, const float* in, float* out);
void portable_cuda(Queue& queue, const Plan& plan, const float* in, float* out);
void native_cuda(Queue& queue, const Plan& plan, const float* in, float* out);

}  // namespace portkern::ops::maxpool3d_impl
