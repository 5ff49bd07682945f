// Without the CUDA back end the GPU tests still build, and skip.
#include "group_kernels.hpp"
#include "model_kernels.hpp"
#include "portkern/error.hpp"

namespace portkern::testing {

void run_model_check_cuda(Queue&, const kernel::Range&, int*) { fail("run_model_check_cuda", "no CUDA back end"); }
template <class Kernel>
void run_group_check_cuda(Queue&, const kernel::Range&, const Kernel&) {
  fail("run_group_check_cuda", "no CUDA back end");
}
template void run_group_check_cuda(Queue&, const kernel::Range&, const GroupCheck&);
template void run_group_check_cuda(Queue&, const kernel::Range&, const GroupCheckWarps&);
void run_divider_check_cuda(Queue&, std::int64_t, const DividerCheck&) {
  fail("run_divider_check_cuda", "no CUDA back end");
}
template <int Rows, int Lanes>
void run_diagonal_check_cuda(Queue&, const DiagonalCheck<Rows, Lanes>&) {
  fail("run_diagonal_check_cuda", "no CUDA back end");
}
template void run_diagonal_check_cuda(Queue&, const DiagonalCheck<1, 1>&);
template void run_diagonal_check_cuda(Queue&, const DiagonalCheck<3, 1>&);
template void run_diagonal_check_cuda(Queue&, const DiagonalCheck<1, 4>&);
template void run_diagonal_check_cuda(Queue&, const DiagonalCheck<3, 4>&);

}  // namespace portkern::testing
