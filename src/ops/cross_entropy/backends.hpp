// cross_entropy_backward on each back end: the portable kernel (CPU, CUDA) and the hand-written CUDA twin,
// which exists only for `portkern bench ops` (the portable/native ratio).
#pragma once

#include "ops/cross_entropy/plan.hpp"
#include "portkern/runtime/queue.hpp"

namespace portkern::ops::cross_entropy_impl {

template <class T>
void portable_cpu(Queue& queue, const Args<T>& args);
template <class T>
void portable_cuda(Queue& queue, const Args<T>& args);
template <class T>
void native_cuda(Queue& queue, const Args<T>& args);

}  // namespace portkern::ops::cross_entropy_impl
