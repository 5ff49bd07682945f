#include "group_kernels.hpp"

#include "portkern/kernel/cuda.cuh"

namespace portkern::testing {

template <class Kernel>
void run_group_check_cuda(Queue& q, const kernel::Range& groups, const Kernel& kernel) {
  kernel::cuda::launch(q, groups, kernel);
}
template void run_group_check_cuda(Queue&, const kernel::Range&, const GroupCheck&);
template void run_group_check_cuda(Queue&, const kernel::Range&, const GroupCheckWarps&);

}  // namespace portkern::testing
