// meanshift: the spec's 10000 points (small: 2000) in 3 Gaussian blobs (meanshift_impl::make_blobs stands in
// for HeCBench's data.csv), sigma 4, radius2 60, both kernels (tiled, global); one call = one iteration.
// Checks: one iteration against the float64 reference (max_error, absolute), then the spec's centroid test
// after 1000 iterations on a GPU (10 on the CPU; the blobs collapse in < 10): if it fails, max_error is set
// to infinity. flops = 17 per pair (exp counted as 1 flop) + 3 divisions per point; bytes = 24 per point.
#include <algorithm>
#include <cmath>
#include <utility>

#include "bench/ops/op_bench.hpp"
#include "ops/meanshift/backends.hpp"
#include "ops/meanshift/reference.hpp"
#include "portkern/ops/meanshift.hpp"
#include "portkern/runtime/buffer.hpp"

namespace portkern::bench::opsuite {
namespace {

namespace meanshift_impl = portkern::ops::meanshift_impl;
using portkern::ops::MeanShiftKernel;

OpResult run_meanshift(OpContext& ctx, std::int64_t n, MeanShiftKernel kind) {
  Queue& q = ctx.queue;
  const float sigma = 4.f, radius2 = 60.f;
  const auto host = meanshift_impl::make_blobs(n, 2024);
  Buffer<float> in(q.device(), 3 * n), out(q.device(), 3 * n);
  in.upload(q, host);
  const bool tiled = kind == MeanShiftKernel::tiled;

  OpResult r;
  r.variant = std::string("f32 ") + std::to_string(n) + " points " + (tiled ? "tiled" : "global");
  r.params = {{"n", n}, {"sigma", sigma}, {"radius2", radius2}, {"kernel", tiled ? "tiled" : "global"}};
  r.bytes = 24.0 * double(n);
  r.flops = 17.0 * double(n) * double(n) + 3.0 * double(n);
  auto call = [&] { portkern::ops::meanshift(q, n, in.data(), out.data(), sigma, radius2, kind); };
  call();
  const auto got = out.download(q);
  const auto want = meanshift_impl::reference(n, host, sigma, radius2);
  r.max_error = max_abs_diff(got, want);
  r.tolerance = 1e-4;
  ctx.dump(r.variant, r.params, "points", host, {n, 3});
  ctx.dump(r.variant, r.params, "out", got, {n, 3});
  r.portable = ctx.time(call);
#if PORTKERN_HAVE_CUDA
  const auto c = meanshift_impl::make_params(sigma, radius2);
  if (ctx.on_gpu()) {
    q.fill(out.data(), -777.f, std::size_t(3 * n));   // poisoned: the twin must write its own result
    meanshift_impl::native_cuda(q, tiled, c, n, in.data(), out.data());
    r.max_error = std::max(r.max_error, max_abs_diff(out.download(q), want));   // the twin checked too
    r.native = ctx.time_native([&] { meanshift_impl::native_cuda(q, tiled, c, n, in.data(), out.data()); });
  }
#endif
  // The clustering check: iterate from the original points, swapping the buffers.
  in.upload(q, host);
  const int iterations = ctx.on_gpu() ? 1000 : 10;
  for (int it = 0; it < iterations; ++it) {
    portkern::ops::meanshift(q, n, in.data(), out.data(), sigma, radius2, kind);
    std::swap(in, out);
  }
  auto final_points = in.download(q);
  final_points.resize(std::size_t(3 * n));
  if (!meanshift_impl::centroids_match(final_points, radius2)) r.max_error = INFINITY;
  return r;
}

}  // namespace
}  // namespace portkern::bench::opsuite

PORTKERN_OP_BENCH(meanshift, true) {
  using namespace portkern::bench::opsuite;
  const std::int64_t n = ctx.small ? 2000 : 10000;
  return {run_meanshift(ctx, n, MeanShiftKernel::tiled), run_meanshift(ctx, n, MeanShiftKernel::global)};
}
