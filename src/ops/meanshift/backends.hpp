// meanshift on each back end: the portable kernels (CPU, CUDA) and the hand-written CUDA twins (benchmark only).
#pragma once

#include <cstdint>

#include "ops/meanshift/kernel.hpp"
#include "portkern/runtime/queue.hpp"

namespace portkern::ops::meanshift_impl {

void portable_cpu(Queue& queue, bool tiled, const Params& c, std::int64_t n, const float* in, float* out);
void portable_cuda(Queue& queue, bool tiled, const Params& c, std::int64_t n, const float* in, float* out);
void native_cuda(Queue& queue, bool tiled, const Params& c, std::int64_t n, const float* in, float* out);

inline Params make_params(float sigma, float radius2) { return {-1.f / (2.f * sigma * sigma), radius2}; }

}  // namespace portkern::ops::meanshift_impl
