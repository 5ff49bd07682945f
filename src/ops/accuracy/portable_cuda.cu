#include "ops/accuracy/backends.hpp"
#include "ops/accuracy/kernel.hpp"
#include "portkern/kernel/cuda.cuh"

namespace portkern::ops::accuracy_impl {

void portable_cuda(Queue& queue, const Args& args) { run<kernel::cuda::Backend>(queue, args); }

}  // namespace portkern::ops::accuracy_impl
