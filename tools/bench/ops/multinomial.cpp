// multinomial: the spec's 65536 rows x 2048 categories (512 MiB), w = rand() % 100 + 1 (here a fixed-seed
// mt19937), u uniform [0, 1) from a fixed seed; plus 4096 x 16384 (8 chunks per row, the two-pass path).
// Small: 8192 x 2048 and 512 x 16384. Every row is checked against the float64 reference; max_error is the
// largest index difference (the spec allows 1: rounding at bucket edges).
#include <cstdint>
#include <random>

#include "bench/ops/op_bench.hpp"
#include "ops/multinomial/backends.hpp"
#include "ops/multinomial/reference.hpp"
#include "portkern/ops/multinomial.hpp"
#include "portkern/runtime/buffer.hpp"

namespace portkern::bench::opsuite {
namespace {

namespace impl = portkern::ops::multinomial_impl;

OpResult run_multinomial(OpContext& ctx, std::int64_t rows, std::int64_t k) {
  Queue& q = ctx.queue;
  std::vector<float> w(std::size_t(rows * k)), u(static_cast<std::size_t>(rows));
  std::mt19937 rng(42);
  for (auto& x : w) x = float(rng() % 100 + 1);
  std::default_random_engine engine(123);
  std::uniform_real_distribution<float> uni(0.f, 1.f);
  for (auto& x : u) x = uni(engine);
  Buffer<float> d_w(q.device(), rows * k), d_u(q.device(), rows);
  Buffer<int> out(q.device(), rows);
  d_w.upload(q, w);
  d_u.upload(q, u);

  OpResult r;
  r.variant = "f32 " + std::to_string(rows) + "x" + std::to_string(k);
  r.params = {{"rows", rows}, {"categories", k}};
  r.bytes = double(rows) * double(k) * 4 + double(rows) * 8;   // least traffic: each weight once
  auto call = [&] { portkern::ops::multinomial(q, rows, k, d_w.data(), d_u.data(), out.data()); };
  call();
  auto got = out.download(q);
  got.resize(std::size_t(rows));
  const auto expected = impl::reference(rows, k, w, u);
  auto error = [&](const std::vector<int>& out) {
    double worst = 0;
    for (std::size_t i = 0; i < expected.size(); ++i) worst = std::max(worst, std::abs(double(out[i] - expected[i])));
    return worst;
  };
  r.max_error = error(got);
  r.tolerance = 1;
  ctx.dump(r.variant, r.params, "weights", w, {rows, k});
  ctx.dump(r.variant, r.params, "uniforms", u, {rows});
  ctx.dump(r.variant, r.params, "out", got, {rows});
  r.portable = ctx.time(call);
#if PORTKERN_HAVE_CUDA
  impl::Args a;
  a.rows = rows, a.categories = k, a.weights = d_w.data(), a.uniforms = d_u.data(), a.out = out.data();
  a.vectorized = reinterpret_cast<std::uintptr_t>(a.weights) % 16 == 0 && k % 4 == 0;
  if (ctx.on_gpu()) {   // the twin's draws, over a poisoned buffer, checked as the portable one's
    q.fill(out.data(), -777, std::size_t(rows));
    impl::native_cuda(q, a);
    r.max_error = std::max(r.max_error, error(out.download(q)));
  }
  r.native = ctx.time_native([&] { impl::native_cuda(q, a); });
#endif
  return r;
}

}  // namespace
}  // namespace portkern::bench::opsuite

PORTKERN_OP_BENCH(multinomial, false) {
  using namespace portkern::bench::opsuite;
  if (ctx.small) return {run_multinomial(ctx, 8192, 2048), run_multinomial(ctx, 512, 16384)};
  return {run_multinomial(ctx, 65536, 2048), run_multinomial(ctx, 4096, 16384)};
}
