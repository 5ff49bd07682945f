#include "group_kernels.hpp"

#include "portkern/kernel/cpu.hpp"

namespace portkern::testing {

template <class Kernel>
void run_group_check_cpu(Queue& q, const kernel::Range& groups, const Kernel& kernel) {
  kernel::cpu::launch(q, groups, kernel);
}
template void run_group_check_cpu(Queue&, const kernel::Range&, const GroupCheck&);
template void run_group_check_cpu(Queue&, const kernel::Range&, const GroupCheckWarps&);

}  // namespace portkern::testing
