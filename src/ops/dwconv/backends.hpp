// dwconv on each back end: the portable kernel (CPU, CUDA) and the hand-written CUDA twin, which exists only
// for `portkern bench ops` (the portable/native ratio).
#pragma once

#include "portkern/ops/dwconv.hpp"
#include "portkern/runtime/queue.hpp"

namespace portkern::ops::dwconv_impl {

void portable_cpu(Queue& queue, const DwconvShape& s, const float* in, const float* weight, const float* bias,
                  float* out);
void portable_cuda(Queue& queue, const DwconvShape& s, const float* in, const float* weight, const float* bias,
                   float* out);
void native_cuda(Queue& queue, const DwconvShape& s, const float* in, const float* weight, const float* bias,
                 float* out);

}  // namespace portkern::ops::dwconv_impl
