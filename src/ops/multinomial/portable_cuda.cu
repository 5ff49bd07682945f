#include "ops/multinomial/backends.hpp"
#include "ops/multinomial/kernel.hpp"
#include "portkern/kernel/cuda.cuh"

namespace portkern::ops::multinomial_impl {

void portable_cuda(Queue& queue, const Args& args) { run<kernel::cuda::Backend>(queue, args); }

}  // namespace portkern::ops::multinomial_impl
