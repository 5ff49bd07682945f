#include "portkern/transpose.hpp"

#include <algorithm>
#include <string>

#include "portkern/checked.hpp"
#include "portkern/error.hpp"
#include "transpose/backends.hpp"

namespace portkern {

void transpose(Queue& queue, std::int64_t rows, std::int64_t cols, const float* in, std::int64_t ld_in, float* out,
               std::int64_t ld_out) {
  const char* function = "portkern::transpose";
  require(rows >= 0, function, "rows", rows, ">= 0");
  require(cols >= 0, function, "cols", cols, ">= 0");
  const std::int64_t min_ld_in = std::max<std::int64_t>(1, cols), min_ld_out = std::max<std::int64_t>(1, rows);
  require(ld_in >= min_ld_in, function, "ld_in", ld_in, ">= max(1, cols) = " + std::to_string(min_ld_in));
  require(ld_out >= min_ld_out, function, "ld_out", ld_out, ">= max(1, rows) = " + std::to_string(min_ld_out));
  if (rows == 0 || cols == 0) return;
  // Row-major rows x cols with leading dimension ld is column-major cols x rows: the elements each spans fit.
  checked_bytes(checked_matrix_extent(cols, rows, ld_in, 0, 1, function, "in"), sizeof(float), function, "in");
  checked_bytes(checked_matrix_extent(rows, cols, ld_out, 0, 1, function, "out"), sizeof(float), function, "out");
  queue.check_pointer(in, function, "in");
  queue.check_pointer(out, function, "out");
  if (queue.device().is_cpu()) return transpose_backends::portable_cpu(queue, rows, cols, in, ld_in, out, ld_out);
#if PORTKERN_HAVE_CUDA
  transpose_backends::portable_cuda(queue, rows, cols, in, ld_in, out, ld_out);
#endif
}

}  // namespace portkern
