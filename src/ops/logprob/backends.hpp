// logprob on each back end: the portable kernels (CPU, CUDA) and the hand-written CUDA twin, which exists
// only for `portkern bench ops` (the portable/native ratio).
#pragma once

#include "ops/logprob/plan.hpp"
#include "portkern/runtime/queue.hpp"

namespace portkern::ops::logprob_impl {

void portable_cpu(Queue& queue, const Args& args);
void portable_cuda(Queue& queue, const Args& args);
void native_cuda(Queue& queue, const Args& args);

}  // namespace portkern::ops::logprob_impl
