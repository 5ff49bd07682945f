// flip on each back end: the portable kernel (CPU, CUDA) and the hand-written CUDA twin, which exists only
// for `portkern bench ops` (the portable/native ratio).
#pragma once

#include "ops/flip/plan.hpp"
#include "portkern/runtime/queue.hpp"

namespace portkern::ops::flip_impl {

template <class T>
void portable_cpu(Queue& queue, const Plan& plan, const T* in, T* out);
template <class T>
void portable_cuda(Queue& queue, const Plan& plan, const T* in, T* out);
template <class T>
void native_cuda(Queue& queue, const Plan& plan, const T* in, T* out);

}  // namespace portkern::ops::flip_impl
