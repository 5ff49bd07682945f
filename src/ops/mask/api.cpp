#include "ops/mask/backends.hpp"
#include "ops/mask/kernel.hpp"
#include "portkern/checked.hpp"
#include "portkern/error.hpp"
#include "portkern/kernel/cpu.hpp"
#include "portkern/ops/mask.hpp"

namespace portkern::ops {

namespace mask_impl {
void portable_cpu(Queue& queue, const Problem& p, const std::int32_t* in, std::int32_t* out) {
  run<kernel::cpu::Backend>(queue, p, in, out);
}
}  // namespace mask_impl

const char* mask_kind_name(MaskKind kind) {
  switch (kind) {
    case MaskKind::sequence: return "sequence";
    case MaskKind::window: return "window";
    case MaskKind::upper: return "upper";
    case MaskKind::lower: return "lower";
    case MaskKind::upper_diag: return "upperDiag";
    case MaskKind::lower_diag: return "lowerDiag";
  }
  return "?";
}

void mask(Queue& queue, MaskKind kind, std::int64_t batch, std::int64_t rows, std::int64_t cols,
          const std::int32_t* in, std::int32_t* out, std::int32_t fill, const std::int32_t* per_row,
          std::int64_t radius) {
  const char* function = "portkern::ops::mask";
  const int k = int(kind);
  require(k >= 0 && k <= int(MaskKind::lower_diag), function, "kind", k, "a MaskKind (0 ... 5)");
  require(batch >= 0, function, "batch", batch, ">= 0 (0: a 2-D tensor)");
  require(rows >= 0, function, "rows", rows, ">= 0");
  require(cols >= 0, function, "cols", cols, ">= 0");
  if (kind == MaskKind::window) require(radius >= 0, function, "radius", radius, ">= 0");
  checked_elements<std::int32_t>({std::max<std::int64_t>(batch, 1), rows, cols}, function, "in (batch * rows * cols)");
  if (rows == 0 || cols == 0) return;
  queue.check_pointer(in, function, "in");
  queue.check_pointer(out, function, "out");
  if (kind == MaskKind::sequence || kind == MaskKind::window) queue.check_pointer(per_row, function, "per_row");
  const mask_impl::Problem p{kind, batch > 0 ? batch : 1, rows, cols, fill, per_row, radius};
  if (queue.device().is_cpu()) return mask_impl::portable_cpu(queue, p, in, out);
#if PORTKERN_HAVE_CUDA
  mask_impl::portable_cuda(queue, p, in, out);
#endif
}

}  // namespace portkern::ops
