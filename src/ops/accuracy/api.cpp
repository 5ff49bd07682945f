#include <cstdint>
#include <string>

#include "ops/accuracy/backends.hpp"
#include "ops/accuracy/kernel.hpp"
#include "portkern/checked.hpp"
#include "portkern/error.hpp"
#include "portkern/kernel/cpu.hpp"
#include "portkern/ops/accuracy.hpp"

namespace portkern::ops {

namespace accuracy_impl {
void portable_cpu(Queue& queue, const Args& args) { run<kernel::cpu::Backend>(queue, args); }
}  // namespace accuracy_impl

void accuracy(Queue& queue, std::int64_t rows, std::int64_t classes, std::int64_t top_k, const float* scores,
              const int* labels, int* count) {
  const char* function = "portkern::ops::accuracy";
  require(rows >= 0, function, "rows", rows, ">= 0");
  require(classes >= 1, function, "classes", classes, ">= 1");
  require(top_k >= 1 && top_k <= classes, function, "top_k", top_k, "in [1, classes = " + std::to_string(classes) + "]");
  queue.check_pointer(count, function, "count");
  queue.fill(count, 0, 1);
  checked_elements<float>({rows, classes}, function, "scores (rows * classes)");
  if (rows == 0) return;
  queue.check_pointer(scores, function, "scores");
  queue.check_pointer(labels, function, "labels");
  accuracy_impl::Args a;
  a.rows = rows, a.classes = classes, a.top_k = top_k, a.scores = scores, a.labels = labels, a.count = count;
  a.vectorized = reinterpret_cast<std::uintptr_t>(scores) % 16 == 0 && classes % 4 == 0;
  if (queue.device().is_cpu()) return accuracy_impl::portable_cpu(queue, a);
#if PORTKERN_HAVE_CUDA
  accuracy_impl::portable_cuda(queue, a);
#endif
}

}  // namespace portkern::ops
