#include "ops/logprob/backends.hpp"
#include "ops/logprob/kernel.hpp"
#include "portkern/kernel/cuda.cuh"

namespace portkern::ops::logprob_impl {

void portable_cuda(Queue& queue, const Args& args) { run<kernel::cuda::Backend>(queue, args); }

}  // namespace portkern::ops::logprob_impl
