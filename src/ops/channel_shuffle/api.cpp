#include <cstdint>
#include <string>

#include "ops/channel_shuffle/backends.hpp"
#include "ops/channel_shuffle/kernel.hpp"
#include "portkern/checked.hpp"
#include "portkern/error.hpp"
#include "portkern/kernel/cpu.hpp"
#include "portkern/ops/channel_shuffle.hpp"

namespace portkern::ops {

namespace channel_shuffle_impl {
void portable_cpu(Queue& queue, const Plan& plan, const float* in, float* out) {
  run<kernel::cpu::Backend>(queue, plan, in, out);
}
}  // namespace channel_shuffle_impl

namespace {

void channel_shuffle_any(Queue& queue, bool nhwc, std::int64_t n, std::int64_t c, std::int64_t hw,
                         std::int64_t groups, const float* in, float* out) {
  const char* function = nhwc ? "portkern::ops::channel_shuffle_nhwc" : "portkern::ops::channel_shuffle_nchw";
  require(n >= 0, function, "n", n, ">= 0");
  require(c >= 0, function, "c", c, ">= 0");
  require(hw >= 0, function, "hw", hw, ">= 0");
  require(groups >= 1, function, "groups", groups, ">= 1");
  require(c % groups == 0, function, "c", c, "a multiple of groups = " + std::to_string(groups));
  checked_elements<float>({n, c, hw}, function, "the tensor (n * c * hw)");
  if (n == 0 || c == 0 || hw == 0) return;
  queue.check_pointer(in, function, "in");
  queue.check_pointer(out, function, "out");
  const auto plan = channel_shuffle_impl::make_plan(nhwc, n, c, hw, groups, in, out);
  if (queue.device().is_cpu()) return channel_shuffle_impl::portable_cpu(queue, plan, in, out);
#if PORTKERN_HAVE_CUDA
  channel_shuffle_impl::portable_cuda(queue, plan, in, out);
#endif
}

}  // namespace

void channel_shuffle_nchw(Queue& queue, std::int64_t n, std::int64_t c, std::int64_t hw, std::int64_t groups,
                          const float* in, float* out) {
  channel_shuffle_any(queue, false, n, c, hw, groups, in, out);
}
void channel_shuffle_nhwc(Queue& queue, std::int64_t n, std::int64_t c, std::int64_t hw, std::int64_t groups,
                          const float* in, float* out) {
  channel_shuffle_any(queue, true, n, c, hw, groups, in, out);
}

}  // namespace portkern::ops
