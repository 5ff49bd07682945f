#include "group_kernels.hpp"

#include "portkern/kernel/cuda.cuh"

namespace portkern::testing {

void run_group_check_cuda(Queue& q, const kernel::Range& groups, const GroupCheck& kernel) {
  kernel::cuda::launch(q, groups, kernel);
}

}  // namespace portkern::testing
