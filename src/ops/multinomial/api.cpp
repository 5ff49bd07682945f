#include <climits>
#include <cstdint>

#include "ops/multinomial/backends.hpp"
#include "ops/multinomial/kernel.hpp"
#include "portkern/checked.hpp"
#include "portkern/error.hpp"
#include "portkern/kernel/cpu.hpp"
#include "portkern/ops/multinomial.hpp"

namespace portkern::ops {

namespace multinomial_impl {
void portable_cpu(Queue& queue, const Args& args) { run<kernel::cpu::Backend>(queue, args); }
}  // namespace multinomial_impl

void multinomial(Queue& queue, std::int64_t rows, std::int64_t categories, const float* weights,
                 const float* uniforms, int* out) {
  const char* function = "portkern::ops::multinomial";
  require(rows >= 0, function, "rows", rows, ">= 0");
  require(categories >= 1 && categories <= INT_MAX, function, "categories", categories,
          "in [1, 2^31 - 1] (the result is an int index)");
  checked_elements<float>({rows, categories}, function, "weights (rows * categories)");
  if (rows == 0) return;
  queue.check_pointer(weights, function, "weights");
  queue.check_pointer(uniforms, function, "uniforms");
  queue.check_pointer(out, function, "out");
  multinomial_impl::Args a;
  a.rows = rows, a.categories = categories, a.weights = weights, a.uniforms = uniforms, a.out = out;
  a.vectorized = reinterpret_cast<std::uintptr_t>(weights) % 16 == 0 && categories % 4 == 0;
  if (queue.device().is_cpu()) return multinomial_impl::portable_cpu(queue, a);
#if PORTKERN_HAVE_CUDA
  multinomial_impl::portable_cuda(queue, a);
#endif
}

}  // namespace portkern::ops
