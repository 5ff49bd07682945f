#include "model_kernels.hpp"

#include "portkern/kernel/cpu.hpp"

namespace portkern::testing {

void run_model_check_cpu(Queue& q, const kernel::Range& groups, int* out) {
  kernel::cpu::launch(q, groups, ModelCheck{out});
}

void run_divider_check_cpu(Queue& q, std::int64_t groups, const DividerCheck& kernel) {
  kernel::cpu::launch(q, kernel::Range{groups, 1, 1}, kernel);
}

template <int Rows, int Lanes>
void run_diagonal_check_cpu(Queue& q, const DiagonalCheck<Rows, Lanes>& kernel) {
  kernel::cpu::launch(q, kernel::Range{1, 1, 1}, kernel);
}
template void run_diagonal_check_cpu(Queue&, const DiagonalCheck<1, 1>&);
template void run_diagonal_check_cpu(Queue&, const DiagonalCheck<3, 1>&);
template void run_diagonal_check_cpu(Queue&, const DiagonalCheck<1, 4>&);
template void run_diagonal_check_cpu(Queue&, const DiagonalCheck<3, 4>&);

}  // namespace portkern::testing
