#include "ops/flip/backends.hpp"
#include "ops/flip/kernel.hpp"
#include "portkern/kernel/cuda.cuh"

namespace portkern::ops::flip_impl {

template <class T>
void portable_cuda(Queue& queue, const Plan& plan, const T* in, T* out) {
  run<kernel::cuda::Backend>(queue, plan, in, out);
}
template void portable_cuda(Queue&, const Plan&, const float*, float*);
template void portable_cuda(Queue&, const Plan&, const double*, double*);

}  // namespace portkern::ops::flip_impl
