// channel_sum on each back end: the portable kernels (CPU, CUDA) and the hand-written CUDA twin (bench only).
#pragma once

#include <cstdint>

#include "ops/channel_sum/plan.hpp"
#include "portkern/runtime/queue.hpp"

namespace portkern::ops::channel_sum_impl {

void portable_cpu(Queue& queue, const Plan& plan, const std::int32_t* in, std::int64_t* sum, std::int64_t* sumsq);
void portable_cuda(Queue& queue, const Plan& plan, const std::int32_t* in, std::int64_t* sum, std::int64_t* sumsq);
void native_cuda(Queue& queue, const Plan& plan, const std::int32_t* in, std::int64_t* sum, std::int64_t* sumsq);

}  // namespace portkern::ops::channel_sum_impl
