#include <cstdint>

#include "ops/attention/backends.hpp"
#include "ops/attention/kernel.hpp"
#include "portkern/checked.hpp"
#include "portkern/error.hpp"
#include "portkern/kernel/cpu.hpp"
#include "portkern/ops/attention.hpp"

namespace portkern::ops {

namespace attention_impl {
void portable_cpu(Queue& queue, const Plan& plan, bool vector, const float* K, const float* V, const float* q,
                  float* out, float* workspace) {
  run<kernel::cpu::Backend>(queue, plan, vector, K, V, q, out, workspace);
}
}  // namespace attention_impl

std::int64_t attention_workspace_size(std::int64_t n, std::int64_t d) {
  const char* function = "portkern::ops::attention_workspace_size";
  require(n >= 0, function, "n", n, ">= 0");
  require(d >= 0, function, "d", d, ">= 0");
  if (n == 0 || d == 0) return 0;
  checked_elements<float>({n, d}, function, "keys (n * d)");
  return attention_impl::make_plan(n, d).workspace_floats();
}

void attention(Queue& queue, std::int64_t n, std::int64_t d, const float* keys, const float* values,
               const float* query, float* out, float* workspace) {
  const char* function = "portkern::ops::attention";
  require(n >= 1, function, "n", n, ">= 1 (the softmax over no keys is undefined)");
  require(d >= 0, function, "d", d, ">= 0");
  checked_elements<float>({n, d}, function, "keys (n * d)");
  if (d == 0) return;
  queue.check_pointer(keys, function, "keys");
  queue.check_pointer(values, function, "values");
  queue.check_pointer(query, function, "query");
  queue.check_pointer(out, function, "out");
  queue.check_pointer(workspace, function, "workspace");
  auto aligned = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; };
  const bool vector = d % 4 == 0 && aligned(keys) && aligned(values) && aligned(query) && aligned(out) &&
                      aligned(workspace);
  if (queue.device().is_cpu())   // the CPU's split: a few long chunks per thread
    return attention_impl::portable_cpu(queue, attention_impl::make_cpu_plan(n, d, queue.cpu_threads()), vector, keys,
                                        values, query, out, workspace);
#if PORTKERN_HAVE_CUDA
  attention_impl::portable_cuda(queue, attention_impl::make_plan(n, d), vector, keys, values, query, out, workspace);
#endif
}

}  // namespace portkern::ops
