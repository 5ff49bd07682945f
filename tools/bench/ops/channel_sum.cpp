// channel_sum: the channel operators' sweep (channel_sweep in op_bench.hpp), x = rand() % 256 as the spec
// (here a fixed-seed mt19937). One input buffer of the largest size serves every shape (its prefix). Both
// outputs checked exactly against the reference (the spec checked only the sum, within 1).
#include <algorithm>
#include <random>

#include "bench/ops/op_bench.hpp"
#include "ops/channel_sum/backends.hpp"
#include "ops/channel_sum/plan.hpp"
#include "ops/channel_sum/reference.hpp"
#include "portkern/ops/channel_sum.hpp"
#include "portkern/runtime/buffer.hpp"

PORTKERN_OP_BENCH(channel_sum, false) {
  using namespace portkern::bench::opsuite;
  using namespace portkern;
  namespace impl = portkern::ops::channel_sum_impl;
  Queue& q = ctx.queue;
  const std::vector<ChannelShape> sweep = channel_sweep(ctx.small);
  std::int64_t max_numel = 0, max_c = 0;
  for (const auto& s : sweep) max_numel = std::max(max_numel, s.numel()), max_c = std::max(max_c, s.c);
  std::vector<std::int32_t> host(static_cast<std::size_t>(max_numel));
  std::mt19937 rng(static_cast<unsigned>(max_numel));
  for (auto& x : host) x = std::int32_t(rng() % 256);
  Buffer<std::int32_t> in(q.device(), max_numel);
  Buffer<std::int64_t> sum(q.device(), max_c), sumsq(q.device(), max_c);
  in.upload(q, host);

  std::vector<OpResult> results;
  for (const ChannelShape& shape : sweep) {
    const bool nhwc = shape.nhwc;
    const std::int64_t n = shape.n, c = shape.c, hw = shape.hw(), numel = shape.numel();
    const std::string variant = shape.name() + " i32";
    const nlohmann::json params = shape.params();
    const auto call = [&] {
      if (nhwc) ops::channel_sum_nhwc(q, n, c, hw, in.data(), sum.data(), sumsq.data());
      else ops::channel_sum_nchw(q, n, c, hw, in.data(), sum.data(), sumsq.data());
    };
    OpResult r;
    r.variant = variant;
    r.params = params;
    r.bytes = double(numel) * sizeof(std::int32_t) + 2.0 * double(c) * sizeof(std::int64_t);
    std::vector<std::int64_t> want_sum, want_sq;
    impl::reference(nhwc, n, c, hw, std::span<const std::int32_t>(host.data(), std::size_t(numel)), want_sum,
                    want_sq);
    const auto error = [&] {   // the largest |difference| over both outputs
      auto s = sum.download(q), sq = sumsq.download(q);
      double e = 0;
      for (std::int64_t i = 0; i < c; ++i)
        e = std::max({e, std::abs(double(s[std::size_t(i)] - want_sum[std::size_t(i)])),
                      std::abs(double(sq[std::size_t(i)] - want_sq[std::size_t(i)]))});
      return e;
    };
    call();
    r.max_error = error();
    r.tolerance = 0;   // integers: exact
    if (!ctx.dump_dir.empty()) {
      auto s = sum.download(q), sq = sumsq.download(q);
      s.resize(std::size_t(c)), sq.resize(std::size_t(c));
      ctx.dump(variant, params, "in", std::vector<std::int32_t>(host.begin(), host.begin() + numel), shape.dims());
      ctx.dump(variant, params, "sum", s, {c});
      ctx.dump(variant, params, "sumsq", sq, {c});
    }
    r.portable = ctx.time(call);
#if PORTKERN_HAVE_CUDA
    const auto plan = impl::make_plan(nhwc, n, c, hw, reinterpret_cast<std::uintptr_t>(in.data()) % 16 == 0);
    if (ctx.on_gpu()) {   // the twin must agree too
      q.fill(sum.data(), std::int64_t(-777), std::size_t(c));
      impl::native_cuda(q, plan, in.data(), sum.data(), sumsq.data());
      r.max_error = std::max(r.max_error, error());   // the twin must agree too
    }
    r.native = ctx.time_native([&] { impl::native_cuda(q, plan, in.data(), sum.data(), sumsq.data()); });
#endif
    results.push_back(std::move(r));
  }
  return results;
}
