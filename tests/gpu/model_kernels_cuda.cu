#include "model_kernels.hpp"

#include "portkern/kernel/cuda.cuh"

namespace portkern::testing {

void run_model_check_cuda(Queue& q, const kernel::Range& groups, int* out) {
  kernel::cuda::launch(q, groups, ModelCheck{out});
}

}  // namespace portkern::testing
