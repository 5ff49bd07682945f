// clink on each back end: the portable kernel (CPU, CUDA) and the hand-written CUDA twin (benchmark only).
#pragma once

#include <cstdint>

#include "portkern/ops/clink.hpp"
#include "portkern/runtime/queue.hpp"

namespace portkern::ops::clink_impl {

void portable_cpu(Queue& queue, std::int64_t sequences, std::int64_t steps, const ClinkWeights& w, const float* x,
                  float* y);
void portable_cuda(Queue& queue, std::int64_t sequences, std::int64_t steps, const ClinkWeights& w, const float* x,
                   float* y);
void native_cuda(Queue& queue, std::int64_t sequences, std::int64_t steps, const ClinkWeights& w, const float* x,
                 float* y);

}  // namespace portkern::ops::clink_impl
