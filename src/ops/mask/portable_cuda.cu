#include "ops/mask/backends.hpp"
#include "ops/mask/kernel.hpp"
#include "portkern/kernel/cuda.cuh"

namespace portkern::ops::mask_impl {

void portable_cuda(Queue& queue, const Problem& p, const std::int32_t* in, std::int32_t* out) {
  run<kernel::cuda::Backend>(queue, p, in, out);
}

}  // namespace portkern::ops::mask_impl
