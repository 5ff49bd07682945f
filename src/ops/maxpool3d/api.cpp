#include <cstdint>
#include <string>

#include "ops/maxpool3d/backends.hpp"
#include "ops/maxpool3d/kernel.hpp"
#include "portkern/checked.hpp"
#include "portkern/error.hpp"
#include "portkern/kernel/cpu.hpp"
#include "portkern/ops/maxpool3d.hpp"

namespace portkern::ops {

namespace maxpool3d_impl {
void portable_cpu(Queue& queue, const Plan& plan, const float* in, float* out) {
  run<kernel::cpu::Backend>(queue, plan, in, out);
}
}  // namespace maxpool3d_impl

std::int64_t maxpool3d_output_extent(std::int64_t extent, std::int64_t window, std::int64_t stride) {
  return extent < window || window < 1 || stride < 1 ? 0 : (extent - window) / stride + 1;
}

void maxpool3d(Queue& queue, std::int64_t z, std::int64_t h_in, std::int64_t w_in, std::int64_t window,
               std::int64_t stride, const float* in, float* out) {
  const char* function = "portkern::ops::maxpool3d";
  require(z >= 0, function, "z", z, ">= 0");
  require(window >= 1, function, "window", window, ">= 1");
  require(stride >= 1, function, "stride", stride, ">= 1");
  require(h_in >= window, function, "h_in", h_in, ">= window = " + std::to_string(window));
  require(w_in >= window, function, "w_in", w_in, ">= window = " + std::to_string(window));
  checked_elements<float>({z, h_in, w_in}, function, "in (z * h_in * w_in)");
  if (z == 0) return;
  queue.check_pointer(in, function, "in");
  queue.check_pointer(out, function, "out");
  maxpool3d_impl::Plan plan;
  plan.z = z, plan.h_in = h_in, plan.w_in = w_in, plan.window = window, plan.stride = stride;
  plan.h_out = maxpool3d_output_extent(h_in, window, stride);
  plan.w_out = maxpool3d_output_extent(w_in, window, stride);
  plan.vector = window == 2 && stride == 2 && w_in % 8 == 0 && reinterpret_cast<std::uintptr_t>(in) % 16 == 0 &&
                reinterpret_cast<std::uintptr_t>(out) % 16 == 0;
  if (queue.device().is_cpu()) return maxpool3d_impl::portable_cpu(queue, plan, in, out);
#if PORTKERN_HAVE_CUDA
  maxpool3d_impl::portable_cuda(queue, plan, in, out);
#endif
}

}  // namespace portkern::ops
