// clink: the spec's 8192 sequences x 20000 steps (small: 256 x 1000), once per weight "file" (HeCBench runs
// weight_1 and weight_2; here mt19937 seeds 1 and 2, see clink_impl::make_weight_file). flops = 315 per
// sequence and step (sigmoid and tanh counted as 1 flop each); bytes = 8 per sequence and step.
// The float64 reference replays 64 rows spread over all sequences (all N at default size would take
// minutes on the host): max_error is over those rows' every step.
#include <algorithm>
#include <cmath>

#include "bench/ops/op_bench.hpp"
#include "ops/clink/backends.hpp"
#include "ops/clink/reference.hpp"
#include "portkern/ops/clink.hpp"
#include "portkern/runtime/buffer.hpp"

namespace portkern::bench::opsuite {
namespace {

namespace clink_impl = portkern::ops::clink_impl;

double subset_error(const std::vector<float>& got, const std::vector<double>& want,
                    const std::vector<std::int64_t>& rows, std::int64_t steps) {
  double worst = 0;
  for (std::size_t k = 0; k < rows.size(); ++k)
    for (std::int64_t t = 0; t < steps; ++t) {
      const double d = std::abs(double(got[std::size_t(rows[k] * steps + t)]) - want[k * std::size_t(steps) + std::size_t(t)]);
      worst = std::isnan(d) ? INFINITY : std::max(worst, d);
    }
  return worst;
}

OpResult run_clink(OpContext& ctx, std::int64_t n, std::int64_t t, unsigned weight_seed) {
  Queue& q = ctx.queue;
  const auto weight_file = clink_impl::make_weight_file(weight_seed);
  const auto w = portkern::ops::clink_weights(weight_file);
  const auto host = clink_impl::make_input(n, t, 20000);
  Buffer<float> x(q.device(), n * t), y(q.device(), n * t);
  x.upload(q, host);

  OpResult r;
  r.variant = "f32 " + std::to_string(n) + " seq x " + std::to_string(t) + " steps weights " + std::to_string(weight_seed);
  r.params = {{"sequences", n}, {"steps", t}, {"weight_seed", weight_seed}};
  r.bytes = 8.0 * double(n) * double(t);
  r.flops = 315.0 * double(n) * double(t);

  portkern::ops::clink(q, n, t, w, x.data(), y.data());
  const auto got = y.download(q);
  std::vector<std::int64_t> rows;
  const std::int64_t stride = std::max<std::int64_t>(1, n / 64);
  for (std::int64_t s = 0; s < n; s += stride) rows.push_back(s);
  if (rows.back() != n - 1) rows.push_back(n - 1);
  const auto want = clink_impl::reference(w, t, host, rows);
  r.max_error = subset_error(got, want, rows, t);
  r.tolerance = 1e-3;   // HeCBench's check; the f32 recurrence stays near 1e-5
  ctx.dump(r.variant, r.params, "weights", weight_file, {146});
  ctx.dump(r.variant, r.params, "x", host, {n, t});
  ctx.dump(r.variant, r.params, "y", got, {n, t});
  r.portable = ctx.time([&] { portkern::ops::clink(q, n, t, w, x.data(), y.data()); });
#if PORTKERN_HAVE_CUDA
  if (ctx.on_gpu()) {
    q.fill(y.data(), 0.f, std::size_t(n * t));
    clink_impl::native_cuda(q, n, t, w, x.data(), y.data());
    r.max_error = std::max(r.max_error, subset_error(y.download(q), want, rows, t));   // the twin checked too
    r.native = ctx.time_native([&] { clink_impl::native_cuda(q, n, t, w, x.data(), y.data()); });
  }
#endif
  return r;
}

}  // namespace
}  // namespace portkern::bench::opsuite

PORTKERN_OP_BENCH(clink, true) {
  using namespace portkern::bench::opsuite;
  const std::int64_t n = ctx.small ? 256 : 8192, t = ctx.small ? 1000 : 20000;
  return {run_clink(ctx, n, t, 1), run_clink(ctx, n, t, 2)};
}
