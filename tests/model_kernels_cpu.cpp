#include "model_kernels.hpp"

#include "portkern/kernel/cpu.hpp"

namespace portkern::testing {

void run_model_check_cpu(Queue& q, const kernel::Range& groups, int* out) {
  kernel::cpu::launch(q, groups, ModelCheck{out});
}

}  // namespace portkern::testing
