// expdist: the Makefile's size 16384 (small: 2048) with the spec's data (A = 1, B = 0, sigma = 1; checked
// against the analytic size^2 e^-1), f32 and f64, plus benchmarks.yaml's size 10000 (small: 1000, not a
// multiple of the block: HeCBench drops trailing points there) on random data, checked against the float64
// reference (1e8 pairs, about a second on the host). flops = 9 per pair (exp and division counted as 1
// flop each); bytes = 3 (m + n) values.
#include <cmath>
#include <random>

#include "bench/ops/op_bench.hpp"
#include "ops/expdist/backends.hpp"
#include "ops/expdist/reference.hpp"
#include "portkern/ops/expdist.hpp"
#include "portkern/runtime/buffer.hpp"

namespace portkern::bench::opsuite {
namespace {

namespace expdist_impl = portkern::ops::expdist_impl;

template <class T>
OpResult run_expdist(OpContext& ctx, std::int64_t size, bool spec_data) {
  Queue& q = ctx.queue;
  const std::int64_t m = size, n = size;
  std::vector<T> a(std::size_t(2 * m), T(1)), b(std::size_t(2 * n), T(0)), sa(std::size_t(m), T(1)), sb(std::size_t(n), T(1));
  if (!spec_data) {
    std::mt19937 rng(42);
    std::uniform_real_distribution<double> coord(-4, 4), scale(0.25, 2);
    for (auto& x : a) x = T(coord(rng));
    for (auto& x : b) x = T(coord(rng));
    for (auto& x : sa) x = T(scale(rng));
    for (auto& x : sb) x = T(scale(rng));
  }
  Buffer<T> da(q.device(), 2 * m), db(q.device(), 2 * n), dsa(q.device(), m), dsb(q.device(), n), cost(q.device(), 1);
  Buffer<T> work(q.device(), portkern::ops::expdist_workspace_size(m, n));
  da.upload(q, a), db.upload(q, b), dsa.upload(q, sa), dsb.upload(q, sb);

  OpResult r;
  r.variant = std::string(sizeof(T) == 4 ? "f32 " : "f64 ") + std::to_string(m) + "x" + std::to_string(n) +
              (spec_data ? " spec data" : " random");
  r.params = {{"m", m}, {"n", n}, {"dtype", sizeof(T) == 4 ? "float32" : "float64"}};
  r.bytes = 3.0 * double(m + n) * sizeof(T);
  r.flops = 9.0 * double(m) * double(n);
  auto call = [&] {
    portkern::ops::expdist(q, m, n, da.data(), db.data(), dsa.data(), dsb.data(), cost.data(), work.data());
  };
  call();
  const std::vector<T> got = cost.download(q);
  const double want = spec_data ? double(m) * double(n) * std::exp(-1.0)
                                : expdist_impl::reference<T>(m, n, a, b, sa, sb);
  r.max_error = std::abs(double(got[0]) - want) / want;   // relative
  r.tolerance = sizeof(T) == 4 ? 1e-5 : 1e-12;
  ctx.dump(r.variant, r.params, "a", a, {2, m});
  ctx.dump(r.variant, r.params, "b", b, {2, n});
  ctx.dump(r.variant, r.params, "sigma_a", sa, {m});
  ctx.dump(r.variant, r.params, "sigma_b", sb, {n});
  ctx.dump(r.variant, r.params, "cost", got, {1});
  r.portable = ctx.time(call);
#if PORTKERN_HAVE_CUDA
  if (ctx.on_gpu()) {
    auto native = [&] {
      expdist_impl::native_cuda(q, m, n, da.data(), db.data(), dsa.data(), dsb.data(), cost.data(), work.data());
    };
    q.fill(cost.data(), T(-777), 1);   // poisoned: the twin must write its own result
    native();
    r.max_error = std::max(r.max_error, std::abs(double(cost.download(q)[0]) - want) / want);   // the twin too
    r.native = ctx.time_native(native);
  }
#endif
  return r;
}

}  // namespace
}  // namespace portkern::bench::opsuite

PORTKERN_OP_BENCH(expdist, true) {
  using namespace portkern::bench::opsuite;
  const std::int64_t size = ctx.small ? 2048 : 16384, odd = ctx.small ? 1000 : 10000;
  return {run_expdist<float>(ctx, size, true), run_expdist<double>(ctx, size, true), run_expdist<float>(ctx, odd, false),
          run_expdist<double>(ctx, odd, false)};
}
