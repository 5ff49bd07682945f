#include <string>

#include "ops/gd/backends.hpp"
#include "ops/gd/kernel.hpp"
#include "portkern/error.hpp"
#include "portkern/kernel/cpu.hpp"
#include "portkern/ops/gd.hpp"

namespace portkern::ops {

namespace gd_impl {
void portable_cpu(Queue& queue, const Params& p, const GdMatrix& A, const float* labels, float* x,
                  float* objective_error, float* workspace) {
  run<kernel::cpu::Backend>(queue, p, A.row_ptr, A.col_idx, A.values, A.t_row_ptr, A.t_col_idx, A.t_values, labels,
                            x, objective_error, workspace);
}
}  // namespace gd_impl

HostCsr gd_transpose(std::int64_t rows, std::int64_t cols, std::span<const std::int64_t> row_ptr,
                     std::span<const std::int32_t> col_idx, std::span<const float> values) {
  const char* function = "portkern::ops::gd_transpose";
  require(rows >= 0, function, "rows", rows, ">= 0");
  require(cols >= 0 && cols <= INT32_MAX, function, "cols", cols, "in [0, 2^31)");
  require(std::int64_t(row_ptr.size()) == rows + 1, function, "row_ptr.size()", row_ptr.size(),
          "rows + 1 = " + std::to_string(rows + 1));
  require(row_ptr[0] == 0, function, "row_ptr[0]", row_ptr[0], "0");
  for (std::int64_t i = 0; i < rows; ++i)
    require(row_ptr[std::size_t(i + 1)] >= row_ptr[std::size_t(i)], function,
            "row_ptr[" + std::to_string(i + 1) + "]", row_ptr[std::size_t(i + 1)],
            ">= row_ptr[" + std::to_string(i) + "] = " + std::to_string(row_ptr[std::size_t(i)]));
  const std::int64_t nnz = row_ptr[std::size_t(rows)];
  require(std::int64_t(col_idx.size()) >= nnz, function, "col_idx.size()", col_idx.size(),
          ">= nnz = " + std::to_string(nnz));
  require(std::int64_t(values.size()) >= nnz, function, "values.size()", values.size(),
          ">= nnz = " + std::to_string(nnz));
  require(rows <= INT32_MAX, function, "rows", rows, "< 2^31 (32-bit row indices of the transpose)");
  HostCsr t;
  t.row_ptr.assign(std::size_t(cols + 1), 0);
  for (std::int64_t k = 0; k < nnz; ++k) {
    const std::int32_t c = col_idx[std::size_t(k)];
    require(c >= 0 && c < cols, function, "col_idx[" + std::to_string(k) + "]", c,
            "in [0, cols = " + std::to_string(cols) + ")");
    ++t.row_ptr[std::size_t(c + 1)];
  }
  for (std::int64_t j = 0; j < cols; ++j) t.row_ptr[std::size_t(j + 1)] += t.row_ptr[std::size_t(j)];
  t.col_idx.resize(std::size_t(nnz));
  t.values.resize(std::size_t(nnz));
  std::vector<std::int64_t> next(t.row_ptr.begin(), t.row_ptr.end() - 1);
  for (std::int64_t i = 0; i < rows; ++i)
    for (std::int64_t k = row_ptr[std::size_t(i)]; k < row_ptr[std::size_t(i + 1)]; ++k) {
      const std::int64_t at = next[std::size_t(col_idx[std::size_t(k)])]++;
      t.col_idx[std::size_t(at)] = std::int32_t(i);
      t.values[std::size_t(at)] = values[std::size_t(k)];
    }
  return t;
}

std::int64_t gd_workspace_size(std::int64_t rows, std::int64_t cols) {
  const char* function = "portkern::ops::gd_workspace_size";
  require(rows >= 0, function, "rows", rows, ">= 0");
  require(cols >= 0, function, "cols", cols, ">= 0");
  return gd_impl::make_params(rows, cols, 0.f, 0.f).workspace_floats();
}

void gd_step(Queue& queue, const GdMatrix& A, const float* labels, float lambda, float alpha, float* x,
             float* objective_error, float* workspace) {
  const char* function = "portkern::ops::gd_step";
  require(A.rows >= 1, function, "A.rows", A.rows, ">= 1");
  require(A.cols >= 1, function, "A.cols", A.cols, ">= 1");
  require(A.rows <= INT32_MAX, function, "A.rows", A.rows, "< 2^31 (32-bit row indices of A^T)");
  require(A.cols <= INT32_MAX, function, "A.cols", A.cols, "< 2^31 (32-bit column indices)");
  require(A.nnz >= 0, function, "A.nnz", A.nnz, ">= 0");
  queue.check_pointer(A.row_ptr, function, "A.row_ptr");
  queue.check_pointer(A.t_row_ptr, function, "A.t_row_ptr");
  if (A.nnz > 0) {
    queue.check_pointer(A.col_idx, function, "A.col_idx");
    queue.check_pointer(A.values, function, "A.values");
    queue.check_pointer(A.t_col_idx, function, "A.t_col_idx");
    queue.check_pointer(A.t_values, function, "A.t_values");
  }
  queue.check_pointer(labels, function, "labels");
  queue.check_pointer(x, function, "x");
  queue.check_pointer(objective_error, function, "objective_error");
  queue.check_pointer(workspace, function, "workspace");
  const auto p = gd_impl::make_params(A.rows, A.cols, lambda, alpha);
  if (queue.device().is_cpu()) return gd_impl::portable_cpu(queue, p, A, labels, x, objective_error, workspace);
#if PORTKERN_HAVE_CUDA
  gd_impl::portable_cuda(queue, p, A, labels, x, objective_error, workspace);
#endif
}

}  // namespace portkern::ops
