#include <string>

#include "ops/glu/backends.hpp"
#include "ops/glu/kernel.hpp"
#include "portkern/checked.hpp"
#include "portkern/error.hpp"
#include "portkern/kernel/cpu.hpp"
#include "portkern/ops/glu.hpp"

namespace portkern::ops {

namespace glu_impl {
void portable_cpu(Queue& queue, const Problem& p, const float* x, float* y) {
  run<kernel::cpu::Backend>(queue, p, x, y);
}
}  // namespace glu_impl

void glu(Queue& queue, std::span<const std::int64_t> shape, int axis, const float* x, float* y) {
  const char* function = "portkern::ops::glu";
  const int rank = int(shape.size());
  require(rank >= 1 && rank <= 8, function, "shape.size()", rank, "in [1, 8]");
  require(axis >= -rank && axis < rank, function, "axis", axis, "in [-rank, rank) = [" + std::to_string(-rank) +
          ", " + std::to_string(rank) + ")");
  const int a = axis < 0 ? axis + rank : axis;
  for (int k = 0; k < rank; ++k)
    require(shape[k] >= 0, function, "shape[" + std::to_string(k) + "]", shape[k], ">= 0");
  const std::int64_t numel = checked_product(shape, function, "the elements (the product of shape)");
  checked_bytes(numel, sizeof(float), function, "x");
  require(shape[a] % 2 == 0, function, "shape[" + std::to_string(a) + "]", shape[a],
          "even (the split axis is cut in two halves)");
  if (numel == 0) return;
  queue.check_pointer(x, function, "x");
  queue.check_pointer(y, function, "y");
  glu_impl::Problem p;
  p.rows = 1;
  for (int k = 0; k < a; ++k) p.rows *= shape[k];
  p.half = numel / p.rows / 2;
  if (queue.device().is_cpu()) return glu_impl::portable_cpu(queue, p, x, y);
#if PORTKERN_HAVE_CUDA
  glu_impl::portable_cuda(queue, p, x, y);
#endif
}

}  // namespace portkern::ops
