#include <cstring>

#include "ops/clink/backends.hpp"
#include "ops/clink/kernel.hpp"
#include "portkern/checked.hpp"
#include "portkern/error.hpp"
#include "portkern/kernel/cpu.hpp"
#include "portkern/ops/clink.hpp"

namespace portkern::ops {

namespace clink_impl {
void portable_cpu(Queue& queue, std::int64_t sequences, std::int64_t steps, const ClinkWeights& w, const float* x,
                  float* y) {
  run<kernel::cpu::Backend>(queue, sequences, steps, w, x, y);
}
}  // namespace clink_impl

ClinkWeights clink_weights(std::span<const float> values) {
  require(values.size() == 146, "portkern::ops::clink_weights", "values.size()", values.size(),
          "146 (inW 4x5, intW 4x5x5, intB 4x5, outW 5, outB)");
  ClinkWeights w;
  std::memcpy(&w, values.data(), sizeof w);
  return w;
}

void clink(Queue& queue, std::int64_t sequences, std::int64_t steps, const ClinkWeights& weights, const float* x,
           float* y) {
  const char* function = "portkern::ops::clink";
  require(sequences >= 0, function, "sequences", sequences, ">= 0");
  require(steps >= 0, function, "steps", steps, ">= 0");
  checked_elements<float>({sequences, steps}, function, "x (sequences * steps)");
  if (sequences == 0 || steps == 0) return;
  queue.check_pointer(x, function, "x");
  queue.check_pointer(y, function, "y");
  if (queue.device().is_cpu()) return clink_impl::portable_cpu(queue, sequences, steps, weights, x, y);
#if PORTKERN_HAVE_CUDA
  clink_impl::portable_cuda(queue, sequences, steps, weights, x, y);
#endif
}

}  // namespace portkern::ops
