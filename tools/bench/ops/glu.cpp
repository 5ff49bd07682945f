// glu: the spec's 1024^3 f32 tensor, uniform in [-6, 6], split along each of its three axes (the spec's
// seven runs repeat the axes {2, 0, 1}; each distinct one is timed once here). Small: 256^3.
// Verification: the whole output at small sizes; at default sizes a deterministic subset of 2^20 outputs
// (the float64 reference over 2^29 outputs would take tens of seconds).
#include <algorithm>
#include <cmath>

#include "bench/ops/op_bench.hpp"
#include "ops/glu/backends.hpp"
#include "portkern/ops/glu.hpp"
#include "portkern/runtime/buffer.hpp"

namespace portkern::bench::opsuite {
namespace {

namespace glu_impl = portkern::ops::glu_impl;

// Uniform in [-6, 6) from a hash of the index (splitmix64): fixed, and fast enough for 2^30 values.
float glu_input(std::uint64_t i) {
  std::uint64_t z = (i + 1) * 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return float(double(z >> 11) * 0x1.0p-53 * 12.0 - 6.0);
}

double glu_expected(const std::vector<float>& x, std::int64_t half, std::int64_t out) {
  const std::int64_t m = out / half, l = out % half;
  const double p = x[std::size_t(m * 2 * half + l)], q = x[std::size_t(m * 2 * half + half + l)];
  return p * (q >= 0 ? 1 / (1 + std::exp(-q)) : std::exp(q) / (1 + std::exp(q)));
}

OpResult run_glu(OpContext& ctx, const std::vector<float>& host, Buffer<float>& x, Buffer<float>& y,
                 std::vector<std::int64_t> shape, int axis) {
  Queue& q = ctx.queue;
  const std::int64_t numel = std::int64_t(host.size());
  std::string variant = "f32 ";
  for (std::size_t k = 0; k < shape.size(); ++k) variant += (k ? "x" : "") + std::to_string(shape[k]);
  variant += " axis " + std::to_string(axis);
  const nlohmann::json params = {{"shape", shape}, {"axis", axis}};

  OpResult r;
  r.variant = variant;
  r.params = params;
  r.bytes = 6.0 * double(numel);   // X read once (4 bytes), Y (half as many elements) written once
  portkern::ops::glu(q, shape, axis, x.data(), y.data());
  const auto got = y.download(q);
  std::int64_t rows = 1;
  for (int k = 0; k < axis; ++k) rows *= shape[std::size_t(k)];
  const std::int64_t half = numel / rows / 2, outputs = numel / 2;
  const std::int64_t checks = std::min<std::int64_t>(outputs, std::int64_t(1) << 20);
  auto error = [&](const std::vector<float>& out) {
    double worst = 0;
    for (std::int64_t c = 0; c < checks; ++c) {
      const std::int64_t o = checks == outputs ? c : (c * 1000003 + c / 7) % outputs;
      const double e = glu_expected(host, half, o);
      const double err = std::abs(double(out[std::size_t(o)]) - e) / std::max(1.0, std::abs(e));
      if (!(err <= worst)) worst = std::isnan(err) ? INFINITY : err;
    }
    return worst;
  };
  r.max_error = error(got);   // relative to max(1, |y|)
  r.tolerance = 1e-6;     // a few float ulp (expf, add, divide, multiply)
  std::vector<std::int64_t> out_shape = shape;
  out_shape[std::size_t(axis)] /= 2;
  ctx.dump(variant, params, "x", host, shape);
  ctx.dump(variant, params, "y", got, out_shape);
  r.portable = ctx.time([&] { portkern::ops::glu(q, shape, axis, x.data(), y.data()); });
#if PORTKERN_HAVE_CUDA
  const glu_impl::Problem p{rows, half};
  auto native = [&] { glu_impl::native_cuda(q, p, x.data(), y.data()); };
  if (ctx.on_gpu()) {   // the twin's output, over a poisoned buffer, checked as the portable one's
    q.fill(y.data(), -777.f, std::size_t(outputs));
    native();
    r.max_error = std::max(r.max_error, error(y.download(q)));
  }
  r.native = ctx.time_native(native);
#endif
  return r;
}

}  // namespace
}  // namespace portkern::bench::opsuite

PORTKERN_OP_BENCH(glu, false) {
  using namespace portkern::bench::opsuite;
  const std::int64_t n = ctx.small ? 256 : 1024;
  const std::vector<std::int64_t> shape = {n, n, n};
  std::vector<float> host(std::size_t(n * n * n));
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n * n * n; ++i) host[std::size_t(i)] = glu_input(std::uint64_t(i));
  portkern::Buffer<float> x(ctx.queue.device(), n * n * n), y(ctx.queue.device(), n * n * n / 2);
  x.upload(ctx.queue, host);
  std::vector<OpResult> results;
  for (int axis : {2, 0, 1}) results.push_back(run_glu(ctx, host, x, y, shape, axis));
  return results;
}
