#include "ops/expdist/backends.hpp"
#include "ops/expdist/kernel.hpp"
#include "portkern/kernel/cuda.cuh"

namespace portkern::ops::expdist_impl {

template <class T>
void portable_cuda(Queue& queue, std::int64_t m, std::int64_t n, const T* a, const T* b, const T* sigma_a,
                   const T* sigma_b, T* cost, T* workspace) {
  run<kernel::cuda::Backend>(queue, m, n, a, b, sigma_a, sigma_b, cost, workspace);
}
template void portable_cuda(Queue&, std::int64_t, std::int64_t, const float*, const float*, const float*,
                            const float*, float*, float*);
template void portable_cuda(Queue&, std::int64_t, std::int64_t, const double*, const double*, const double*,
                            const double*, double*, double*);

}  // namespace portkern::ops::expdist_impl
