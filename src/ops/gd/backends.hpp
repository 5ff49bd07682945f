// gd on each back end: the portable kernels (CPU, CUDA) and the hand-written CUDA twin, which exists only for
// `portkern bench ops` (the portable/native ratio).
#pragma once

#include "ops/gd/kernel.hpp"
#include "portkern/ops/gd.hpp"
#include "portkern/runtime/queue.hpp"

namespace portkern::ops::gd_impl {

void portable_cpu(Queue& queue, const Params& p, const GdMatrix& A, const float* labels, float* x,
                  float* objective_error, float* workspace);
void portable_cuda(Queue& queue, const Params& p, const GdMatrix& A, const float* labels, float* x,
                   float* objective_error, float* workspace);
void native_cuda(Queue& queue, const Params& p, const GdMatrix& A, const float* labels, float* x,
                 float* objective_error, float* workspace);

}  // namespace portkern::ops::gd_impl
