#include "ops/cross_entropy/backends.hpp"
#include "ops/cross_entropy/kernel.hpp"
#include "portkern/kernel/cuda.cuh"

namespace portkern::ops::cross_entropy_impl {

template <class T>
void portable_cuda(Queue& queue, const Args<T>& args) {
  run<kernel::cuda::Backend>(queue, args);
}
template void portable_cuda(Queue&, const Args<half>&);
template void portable_cuda(Queue&, const Args<float>&);
template void portable_cuda(Queue&, const Args<double>&);

}  // namespace portkern::ops::cross_entropy_impl
