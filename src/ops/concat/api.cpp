#include "ops/concat/backends.hpp"
#include "ops/concat/kernel.hpp"
#include "portkern/checked.hpp"
#include "portkern/error.hpp"
#include "portkern/kernel/cpu.hpp"
#include "portkern/ops/concat.hpp"

namespace portkern::ops {

namespace concat_impl {
void portable_cpu(Queue& queue, const Problem& p, const float* in1, const float* in2, float* out) {
  run<kernel::cpu::Backend>(queue, p, in1, in2, out);
}
}  // namespace concat_impl

void concat(Queue& queue, std::int64_t outer, std::int64_t mid1, std::int64_t mid2, std::int64_t inner,
            const float* in1, const float* in2, float* out) {
  const char* function = "portkern::ops::concat";
  require(outer >= 0, function, "outer", outer, ">= 0");
  require(mid1 >= 0, function, "mid1", mid1, ">= 0");
  require(mid2 >= 0, function, "mid2", mid2, ">= 0");
  require(inner >= 0, function, "inner", inner, ">= 0");
  checked_elements<float>({outer, checked_add(mid1, mid2, function, "mid1 + mid2"), inner}, function,
                          "out (outer * (mid1 + mid2) * inner)");
  if (outer == 0 || mid1 + mid2 == 0 || inner == 0) return;
  if (mid1 > 0) queue.check_pointer(in1, function, "in1");
  if (mid2 > 0) queue.check_pointer(in2, function, "in2");
  queue.check_pointer(out, function, "out");
  // An empty input's pointer is never dereferenced; make it the other one so alignment is decided by the
  // pointers that are used.
  if (mid1 == 0) in1 = in2;
  if (mid2 == 0) in2 = in1;
  const concat_impl::Problem p{outer, mid1 * inner, mid2 * inner};
  if (queue.device().is_cpu()) return concat_impl::portable_cpu(queue, p, in1, in2, out);
#if PORTKERN_HAVE_CUDA
  concat_impl::portable_cuda(queue, p, in1, in2, out);
#endif
}

}  // namespace portkern::ops
