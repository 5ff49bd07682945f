// adam on each back end: the portable kernel (CPU, CUDA) and the hand-written CUDA twin (benchmark only).
#pragma once

#include <cstdint>

#include "ops/adam/kernel.hpp"
#include "portkern/runtime/queue.hpp"

namespace portkern::ops::adam_impl {

void portable_cpu(Queue& queue, const Params& c, AdamMode mode, std::int64_t count, float* p, float* m, float* v,
                  const float* g);
void portable_cuda(Queue& queue, const Params& c, AdamMode mode, std::int64_t count, float* p, float* m, float* v,
                   const float* g);
void native_cuda(Queue& queue, const Params& c, AdamMode mode, std::int64_t count, float* p, float* m, float* v,
                 const float* g);

// The checked constants of a call (api.cpp).
Params make_params(const AdamOptions& options);

}  // namespace portkern::ops::adam_impl
