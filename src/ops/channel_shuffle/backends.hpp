// channel_shuffle on each back end: the portable kernels (CPU, CUDA) and the hand-written CUDA twin, which
// exists only for `portkern bench ops`.
#pragma once

#include "ops/channel_shuffle/plan.hpp"
#include "portkern/runtime/queue.hpp"

namespace portkern::ops::channel_shuffle_impl {

void portable_cpu(Queue& queue, const Plan& plan, const float* in, float* out);
void portable_cuda(Queue& queue, const Plan& plan, const float* in, float* out);
void native_cuda(Queue& queue, const Plan& plan, const float* in, float* out);

}  // namespace portkern::ops::channel_shuffle_impl
