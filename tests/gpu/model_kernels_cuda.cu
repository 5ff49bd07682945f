#include "model_kernels.hpp"

#include "portkern/kernel/cuda.cuh"

namespace portkern::testing {

void run_model_check_cuda(Queue& q, const kernel::Range& groups, int* out) {
  kernel::cuda::launch(q, groups, ModelCheck{out});
}

void run_divider_check_cuda(Queue& q, std::int64_t groups, const DividerCheck& kernel) {
  kernel::cuda::launch(q, kernel::Range{groups, 1, 1}, kernel);
}

template <int Rows, int Lanes>
void run_diagonal_check_cuda(Queue& q, const DiagonalCheck<Rows, Lanes>& kernel) {
  kernel::cuda::launch(q, kernel::Range{1, 1, 1}, kernel);
}
template void run_diagonal_check_cuda(Queue&, const DiagonalCheck<1, 1>&);
template void run_diagonal_check_cuda(Queue&, const DiagonalCheck<3, 1>&);
template void run_diagonal_check_cuda(Queue&, const DiagonalCheck<1, 4>&);
template void run_diagonal_check_cuda(Queue&, const DiagonalCheck<3, 4>&);

}  // namespace portkern::testing
