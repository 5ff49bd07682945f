#include <cstdint>

#include "ops/channel_sum/backends.hpp"
#include "ops/channel_sum/kernel.hpp"
#include "portkern/checked.hpp"
#include "portkern/error.hpp"
#include "portkern/kernel/cpu.hpp"
#include "portkern/ops/channel_sum.hpp"

namespace portkern::ops {

namespace channel_sum_impl {
void portable_cpu(Queue& queue, const Plan& plan, const std::int32_t* in, std::int64_t* sum, std::int64_t* sumsq) {
  run<kernel::cpu::Backend>(queue, plan, in, sum, sumsq);
}
}  // namespace channel_sum_impl

namespace {

void channel_sum_any(Queue& queue, bool nhwc, std::int64_t n, std::int64_t c, std::int64_t hw, const std::int32_t* in,
                     std::int64_t* sum, std::int64_t* sumsq) {
  const char* function = nhwc ? "portkern::ops::channel_sum_nhwc" : "portkern::ops::channel_sum_nchw";
  require(n >= 0, function, "n", n, ">= 0");
  require(c >= 0, function, "c", c, ">= 0");
  require(hw >= 0, function, "hw", hw, ">= 0");
  checked_elements<std::int32_t>({n, c, hw}, function, "in (n * c * hw)");
  if (c == 0) return;
  if (n * hw > 0) queue.check_pointer(in, function, "in");
  queue.check_pointer(sum, function, "sum");
  queue.check_pointer(sumsq, function, "sumsq");
  require(sum != sumsq, function, "sumsq", "sum", "a different buffer from sum");
  const bool cpu = queue.device().is_cpu();
  const auto plan = channel_sum_impl::make_plan(
      nhwc, n, c, hw, reinterpret_cast<std::uintptr_t>(in) % 16 == 0,
      cpu ? channel_sum_impl::cpu_cut(queue.cpu_threads()) : channel_sum_impl::Cut{});
  if (cpu) return channel_sum_impl::portable_cpu(queue, plan, in, sum, sumsq);
#if PORTKERN_HAVE_CUDA
  channel_sum_impl::portable_cuda(queue, plan, in, sum, sumsq);
#endif
}

}  // namespace

void channel_sum_nchw(Queue& queue, std::int64_t n, std::int64_t c, std::int64_t hw, const std::int32_t* in,
                      std::int64_t* sum, std::int64_t* sumsq) {
  channel_sum_any(queue, false, n, c, hw, in, sum, sumsq);
}
void channel_sum_nhwc(Queue& queue, std::int64_t n, std::int64_t c, std::int64_t hw, const std::int32_t* in,
                      std::int64_t* sum, std::int64_t* sumsq) {
  channel_sum_any(queue, true, n, c, hw, in, sum, sumsq);
}

}  // namespace portkern::ops
