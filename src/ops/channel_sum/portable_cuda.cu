#include "ops/channel_sum/backends.hpp"
#include "ops/channel_sum/kernel.hpp"
#include "portkern/kernel/cuda.cuh"

namespace portkern::ops::channel_sum_impl {

void portable_cuda(Queue& queue, const Plan& plan, const std::int32_t* in, std::int64_t* sum, std::int64_t* sumsq) {
  run<kernel::cuda::Backend>(queue, plan, in, sum, sumsq);
}

}  // namespace portkern::ops::channel_sum_impl
