// expdist on each back end: the portable kernels (CPU, CUDA) and the hand-written CUDA twin (benchmark only).
#pragma once

#include <cstdint>

#include "portkern/runtime/queue.hpp"

namespace portkern::ops::expdist_impl {

template <class T>
void portable_cpu(Queue& queue, std::int64_t m, std::int64_t n, const T* a, const T* b, const T* sigma_a,
                  const T* sigma_b, T* cost, T* workspace);
template <class T>
void portable_cuda(Queue& queue, std::int64_t m, std::int64_t n, const T* a, const T* b, const T* sigma_a,
                   const T* sigma_b, T* cost, T* workspace);
template <class T>
void native_cuda(Queue& queue, std::int64_t m, std::int64_t n, const T* a, const T* b, const T* sigma_a,
                 const T* sigma_b, T* cost, T* workspace);

}  // namespace portkern::ops::expdist_impl
