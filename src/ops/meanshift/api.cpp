#include <cmath>

#include "ops/meanshift/backends.hpp"
#include "ops/meanshift/kernel.hpp"
#include "portkern/checked.hpp"
#include "portkern/error.hpp"
#include "portkern/kernel/cpu.hpp"
#include "portkern/ops/meanshift.hpp"

namespace portkern::ops {

namespace meanshift_impl {
void portable_cpu(Queue& queue, bool tiled, const Params& c, std::int64_t n, const float* in, float* out) {
  run<kernel::cpu::Backend>(queue, tiled, c, n, in, out);
}
}  // namespace meanshift_impl

void meanshift(Queue& queue, std::int64_t n, const float* in, float* out, float sigma, float radius2,
               MeanShiftKernel kind) {
  const char* function = "portkern::ops::meanshift";
  require(n >= 0, function, "n", n, ">= 0");
  require(std::isfinite(sigma) && sigma > 0.f, function, "sigma", sigma, "finite and > 0");
  require(std::isfinite(radius2) && radius2 >= 0.f, function, "radius2", radius2, "finite and >= 0");
  require(kind == MeanShiftKernel::global || kind == MeanShiftKernel::tiled, function, "kind", int(kind),
          "0 (global) or 1 (tiled)");
  checked_elements<float>({n, 3}, function, "the points (n * 3)");
  if (n == 0) return;
  queue.check_pointer(in, function, "in");
  queue.check_pointer(out, function, "out");
  require(in != out, function, "out", static_cast<const void*>(out), "!= in (every point reads all old points)");
  const auto c = meanshift_impl::make_params(sigma, radius2);
  const bool tiled = kind == MeanShiftKernel::tiled;
  if (queue.device().is_cpu()) return meanshift_impl::portable_cpu(queue, tiled, c, n, in, out);
#if PORTKERN_HAVE_CUDA
  meanshift_impl::portable_cuda(queue, tiled, c, n, in, out);
#endif
}

}  // namespace portkern::ops
