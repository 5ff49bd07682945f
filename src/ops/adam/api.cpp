#include <cmath>

#include "ops/adam/backends.hpp"
#include "ops/adam/kernel.hpp"
#include "portkern/checked.hpp"
#include "portkern/error.hpp"
#include "portkern/kernel/cpu.hpp"
#include "portkern/ops/adam.hpp"

namespace portkern::ops {

namespace adam_impl {
void portable_cpu(Queue& queue, const Params& c, AdamMode mode, std::int64_t count, float* p, float* m, float* v,
                  const float* g) {
  run<kernel::cpu::Backend>(queue, c, mode, count, p, m, v, g);
}

Params make_params(const AdamOptions& o) {
  const char* function = "portkern::ops::adam";
  require(o.steps >= 0, function, "options.steps", o.steps, ">= 0");
  require(o.beta1 >= 0.f && o.beta1 < 1.f, function, "options.beta1", o.beta1, "in [0, 1)");
  require(o.beta2 >= 0.f && o.beta2 < 1.f, function, "options.beta2", o.beta2, "in [0, 1)");
  require(std::isfinite(o.grad_scale) && o.grad_scale != 0.f, function, "options.grad_scale", o.grad_scale,
          "finite and non-zero");
  require(std::isfinite(o.eps) && o.eps >= 0.f, function, "options.eps", o.eps, "finite and >= 0");
  require(std::isfinite(o.lr), function, "options.lr", o.lr, "finite");
  require(std::isfinite(o.decay), function, "options.decay", o.decay, "finite");
  require(o.mode == AdamMode::eps_inside_sqrt || o.mode == AdamMode::adamw, function, "options.mode", int(o.mode),
          "0 (eps_inside_sqrt) or 1 (adamw)");
  return Params{o.lr, o.beta1, o.beta2, o.eps, o.grad_scale, o.decay, o.steps};
}
}  // namespace adam_impl

void adam(Queue& queue, std::int64_t count, float* p, float* m, float* v, const float* g, const AdamOptions& options) {
  const char* function = "portkern::ops::adam";
  require(count >= 0, function, "count", count, ">= 0");
  const adam_impl::Params c = adam_impl::make_params(options);
  checked_elements<float>({count}, function, "count");
  if (count == 0 || options.steps == 0) return;
  queue.check_pointer(p, function, "p");
  queue.check_pointer(m, function, "m");
  queue.check_pointer(v, function, "v");
  queue.check_pointer(g, function, "g");
  if (queue.device().is_cpu()) return adam_impl::portable_cpu(queue, c, options.mode, count, p, m, v, g);
#if PORTKERN_HAVE_CUDA
  adam_impl::portable_cuda(queue, c, options.mode, count, p, m, v, g);
#endif
}

}  // namespace portkern::ops
