#include "ops/gd/backends.hpp"
#include "ops/gd/kernel.hpp"
#include "portkern/kernel/cuda.cuh"

namespace portkern::ops::gd_impl {

void portable_cuda(Queue& queue, const Params& p, const GdMatrix& A, const float* labels, float* x,
                   float* objective_error, float* workspace) {
  run<kernel::cuda::Backend>(queue, p, A.row_ptr, A.col_idx, A.values, A.t_row_ptr, A.t_col_idx, A.t_values, labels,
                             x, objective_error, workspace);
}

}  // namespace portkern::ops::gd_impl
