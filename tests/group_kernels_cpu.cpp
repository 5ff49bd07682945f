#include "group_kernels.hpp"

#include "portkern/kernel/cpu.hpp"

namespace portkern::testing {

void run_group_check_cpu(Queue& q, const kernel::Range& groups, const GroupCheck& kernel) {
  kernel::cpu::launch(q, groups, kernel);
}

}  // namespace portkern::testing
