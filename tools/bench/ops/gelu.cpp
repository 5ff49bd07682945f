// gelu: the spec's HEAD sizes, 8 x 4096 x {512, 2048} fp16 (small: 8 x 512 x {512, 2048}); src uniform in
// [0, 1), bias integers in [-6, 5], fixed seeds. Verified once on fresh input against the float64 GELU
// (every element); then timed in place as the original does, so the data drifts over the iterations
// (large positive biases eventually saturate to +inf, which costs the same).
#include <algorithm>
#include <cmath>
#include <random>

#include "bench/ops/op_bench.hpp"
#include "ops/gelu/backends.hpp"
#include "ops/gelu/reference.hpp"
#include "portkern/ops/gelu.hpp"
#include "portkern/runtime/buffer.hpp"

namespace portkern::bench::opsuite {
namespace {

namespace gelu_impl = portkern::ops::gelu_impl;

OpResult run_gelu(OpContext& ctx, std::int64_t batch, std::int64_t seq, std::int64_t hidden) {
  Queue& q = ctx.queue;
  const std::int64_t numel = batch * seq * hidden;
  std::mt19937 rng(static_cast<unsigned>(hidden));
  std::uniform_real_distribution<float> unit(0.f, 1.f);
  std::vector<half> src_host(static_cast<std::size_t>(numel)), bias_host(static_cast<std::size_t>(hidden));
  for (auto& v : src_host) v = kernel::to_half(unit(rng));
  for (auto& v : bias_host) v = kernel::to_half(float(int(rng() % 12) - 6));
  Buffer<half> src(q.device(), numel), bias(q.device(), hidden);
  src.upload(q, src_host);
  bias.upload(q, bias_host);
  const std::string variant =
      "f16 " + std::to_string(batch) + "x" + std::to_string(seq) + "x" + std::to_string(hidden);
  const nlohmann::json params = {{"batch", batch}, {"seq", seq}, {"hidden", hidden}};

  OpResult r;
  r.variant = variant;
  r.params = params;
  r.bytes = 4.0 * double(numel) + 2.0 * double(hidden);   // src read and written in place, bias once
  r.flops = 0;
  portkern::ops::gelu(q, batch, seq, hidden, src.data(), bias.data());
  const auto got = src.download(q);
  const auto expected = gelu_impl::reference(hidden, src_host, bias_host);
  // |got - ref| / (|ref| + 1e-3) <= 5e-4 is |got - ref| <= 5e-4 |ref| + 5e-7: the half rounding (2^-11
  // relative) plus float evaluation, with the absolute part for results near 0 (as tests/ops/test_gelu.cpp).
  auto error = [&](const std::vector<half>& out) {
    double worst = 0;
    for (std::size_t i = 0; i < expected.size(); ++i) {
      const double err = std::abs(double(kernel::to_float(out[i])) - expected[i]) / (std::abs(expected[i]) + 1e-3);
      if (!(err <= worst)) worst = std::isnan(err) ? INFINITY : err;
    }
    return worst;
  };
  r.max_error = error(got);
  r.tolerance = 5e-4;
  ctx.dump(variant, params, "src", src_host, {batch, seq, hidden});
  ctx.dump(variant, params, "bias", bias_host, {hidden});
  ctx.dump(variant, params, "out", got, {batch, seq, hidden});
  r.portable = ctx.time([&] { portkern::ops::gelu(q, batch, seq, hidden, src.data(), bias.data()); });
#if PORTKERN_HAVE_CUDA
  auto native = [&] { gelu_impl::native_cuda(q, batch * seq, hidden, src.data(), bias.data()); };
  if (ctx.on_gpu()) {   // the twin on fresh input (the timing above changed src in place), checked as the portable
    src.upload(q, src_host);
    native();
    r.max_error = std::max(r.max_error, error(src.download(q)));
  }
  r.native = ctx.time_native(native);
#endif
  return r;
}

}  // namespace
}  // namespace portkern::bench::opsuite

PORTKERN_OP_BENCH(gelu, false) {
  using namespace portkern::bench::opsuite;
  const std::int64_t seq = ctx.small ? 512 : 4096;
  return {run_gelu(ctx, 8, seq, 512), run_gelu(ctx, 8, seq, 2048)};
}
