#include "ops/gelu/backends.hpp"
#include "ops/gelu/kernel.hpp"
#include "portkern/checked.hpp"
#include "portkern/error.hpp"
#include "portkern/kernel/cpu.hpp"
#include "portkern/ops/gelu.hpp"

namespace portkern::ops {

namespace gelu_impl {
void portable_cpu(Queue& queue, std::int64_t rows, std::int64_t hidden, half* src, const half* bias) {
  run<kernel::cpu::Backend>(queue, rows, hidden, src, bias);
}
}  // namespace gelu_impl

void gelu(Queue& queue, std::int64_t batch, std::int64_t seq, std::int64_t hidden, half* src, const half* bias) {
  const char* function = "portkern::ops::gelu";
  require(batch >= 0, function, "batch", batch, ">= 0");
  require(seq >= 0, function, "seq", seq, ">= 0");
  require(hidden >= 0 && hidden % 2 == 0, function, "hidden", hidden, "even and >= 0");
  checked_elements<half>({batch, seq, hidden}, function, "src (batch * seq * hidden)");
  if (batch == 0 || seq == 0 || hidden == 0) return;
  queue.check_pointer(src, function, "src");
  queue.check_pointer(bias, function, "bias");
  if (queue.device().is_cpu()) return gelu_impl::portable_cpu(queue, batch * seq, hidden, src, bias);
#if PORTKERN_HAVE_CUDA
  gelu_impl::portable_cuda(queue, batch * seq, hidden, src, bias);
#endif
}

}  // namespace portkern::ops
