// adam: the spec's 10k parameters x 200 inner steps (small: 4k x 200), mode 0 (eps inside the sqrt,
// HeCBench's default) and mode 1 (AdamW). p, m, v, g uniform [0, 1) from mt19937(19937) as HeCBench.
// flops = 13 per element per inner step (division and sqrt counted as 1 flop each); bytes = 28 per element.
#include <algorithm>
#include <cmath>
#include <random>

#include "bench/ops/op_bench.hpp"
#include "ops/adam/backends.hpp"
#include "ops/adam/reference.hpp"
#include "portkern/ops/adam.hpp"
#include "portkern/runtime/buffer.hpp"

namespace portkern::bench::opsuite {
namespace {

namespace adam_impl = portkern::ops::adam_impl;
using portkern::ops::AdamMode;
using portkern::ops::AdamOptions;

OpResult run_adam(OpContext& ctx, std::int64_t count, int steps, AdamMode mode) {
  Queue& q = ctx.queue;
  const auto n = std::size_t(count);
  std::mt19937 rng(19937);
  std::uniform_real_distribution<float> uniform(0.f, 1.f);
  std::vector<float> m0(n), v0(n), g(n), p0(n);
  for (std::size_t i = 0; i < n; ++i) m0[i] = uniform(rng), v0[i] = uniform(rng), g[i] = uniform(rng), p0[i] = uniform(rng);
  AdamOptions o;
  o.steps = steps;
  o.mode = mode;
  Buffer<float> p(q.device(), count), m(q.device(), count), v(q.device(), count), gd(q.device(), count);
  auto reset = [&] { p.upload(q, p0), m.upload(q, m0), v.upload(q, v0); };
  reset();
  gd.upload(q, g);

  OpResult r;
  r.variant = "f32 " + std::to_string(count) + " x " + std::to_string(steps) + " steps mode " +
              std::to_string(int(mode));
  r.params = {{"count", count}, {"steps", steps}, {"mode", int(mode)}, {"lr", o.lr}, {"beta1", o.beta1},
              {"beta2", o.beta2}, {"eps", o.eps}, {"grad_scale", o.grad_scale}, {"decay", o.decay}};
  r.bytes = 28.0 * double(count);
  r.flops = 13.0 * double(count) * steps;

  portkern::ops::adam(q, count, p.data(), m.data(), v.data(), gd.data(), o);
  const auto got_p = p.download(q), got_m = m.download(q), got_v = v.download(q);
  std::vector<double> pr(p0.begin(), p0.end()), mr(m0.begin(), m0.end()), vr(v0.begin(), v0.end());
  adam_impl::reference(o, pr, mr, vr, g);
  // HeCBench's check is |p_cpu - p_gpu| <= 1e-3; the f32 chain of 200 steps stays near 1e-6.
  r.max_error = std::max({max_abs_diff(got_p, pr), max_abs_diff(got_m, mr), max_abs_diff(got_v, vr)});
  r.tolerance = 1e-4;
  ctx.dump(r.variant, r.params, "p0", p0, {count});
  ctx.dump(r.variant, r.params, "m0", m0, {count});
  ctx.dump(r.variant, r.params, "v0", v0, {count});
  ctx.dump(r.variant, r.params, "g", g, {count});
  ctx.dump(r.variant, r.params, "p", got_p, {count});
  ctx.dump(r.variant, r.params, "m", got_m, {count});
  ctx.dump(r.variant, r.params, "v", got_v, {count});
  r.portable = ctx.time([&] { portkern::ops::adam(q, count, p.data(), m.data(), v.data(), gd.data(), o); });
#if PORTKERN_HAVE_CUDA
  if (ctx.on_gpu()) {
    const auto c = adam_impl::make_params(o);
    reset();
    adam_impl::native_cuda(q, c, mode, count, p.data(), m.data(), v.data(), gd.data());
    r.max_error = std::max(r.max_error, max_abs_diff(p.download(q), pr));   // the twin checked too
    r.native = ctx.time_native([&] { adam_impl::native_cuda(q, c, mode, count, p.data(), m.data(), v.data(), gd.data()); });
  }
#endif
  return r;
}

}  // namespace
}  // namespace portkern::bench::opsuite

PORTKERN_OP_BENCH(adam, true) {
  using namespace portkern::bench::opsuite;
  const std::int64_t count = ctx.small ? 4096 : 10000;
  return {run_adam(ctx, count, 200, AdamMode::eps_inside_sqrt), run_adam(ctx, count, 200, AdamMode::adamw)};
}
