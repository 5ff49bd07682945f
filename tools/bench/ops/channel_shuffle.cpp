// channel_shuffle: the channel operators' sweep (channel_sweep in op_bench.hpp), groups 2. One input buffer
// of the largest size serves every shape (its prefix); the input is i mod 1000003 rather than the spec's
// i/numel, whose float values repeat at 1.6e9 elements and would hide a wrong permutation. Checked exactly
// against the definition (in[src] == out). On the CPU, oneDNN's shuffle_forward on the same tensor in the same
// layout: its group_size is the size of a group, C / groups (the channels are seen as groups x K and
// transposed; oneDNN sees them as (C / group_size) x group_size and transposes those).
#include <algorithm>
#include <iostream>
#include <limits>

#include "bench/memory_check.hpp"
#include "bench/ops/onednn.hpp"
#include "bench/ops/op_bench.hpp"
#include "ops/channel_shuffle/backends.hpp"
#include "ops/channel_shuffle/plan.hpp"
#include "portkern/ops/channel_shuffle.hpp"
#include "portkern/runtime/buffer.hpp"

namespace portkern::bench::opsuite {
namespace {

namespace impl = portkern::ops::channel_shuffle_impl;

// Mismatches of out against the definition, without materialising a reference tensor.
std::int64_t mismatches(bool nhwc, std::int64_t n, std::int64_t c, std::int64_t hw, std::int64_t groups,
                        const std::vector<float>& in, const std::vector<float>& out) {
  const std::int64_t k = c / groups;
  std::int64_t bad = 0;
#pragma omp parallel for reduction(+ : bad) schedule(static)
  for (std::int64_t b = 0; b < n; ++b)
    for (std::int64_t co = 0; co < c; ++co) {
      const std::int64_t ci = (co % groups) * k + co / groups;
      for (std::int64_t p = 0; p < hw; ++p) {
        const std::int64_t src = nhwc ? (b * hw + p) * c + ci : (b * c + ci) * hw + p;
        const std::int64_t dst = nhwc ? (b * hw + p) * c + co : (b * c + co) * hw + p;
        bad += out[std::size_t(dst)] != in[std::size_t(src)];
      }
    }
  return bad;
}

}  // namespace
}  // namespace portkern::bench::opsuite

PORTKERN_OP_BENCH(channel_shuffle, false) {
  using namespace portkern::bench::opsuite;
  using namespace portkern;
  Queue& q = ctx.queue;
  const std::int64_t groups = 2;
  // A shape needs its input on the host, the device's input and output, and the output downloaded: four
  // tensors (on a 24 GB CPU machine the spec's largest, 6.6 GB each, does not fit). Shapes that do not fit the
  // machine's memory are left out, and said so, rather than the process killed for memory.
  std::vector<ChannelShape> sweep;
  for (const ChannelShape& s : channel_sweep(ctx.small)) {
    if (bench::fits_memory(q.device(), 4.0 * double(s.numel()) * sizeof(float))) sweep.push_back(s);
    else std::cerr << "channel_shuffle: " << s.name() << " left out: 4 tensors of " << double(s.numel()) * 4e-9
                   << " GB do not fit the memory of " << q.device().name() << "\n";
  }
  std::int64_t max_numel = 0;
  for (const auto& s : sweep) max_numel = std::max(max_numel, s.numel());
  std::vector<float> host(static_cast<std::size_t>(max_numel));
  for (std::int64_t i = 0; i < max_numel; ++i) host[std::size_t(i)] = float(i % 1000003);
  Buffer<float> in(q.device(), max_numel), out(q.device(), max_numel);
  in.upload(q, host);

  std::vector<OpResult> results;
  for (const ChannelShape& shape : sweep) {
    const bool nhwc = shape.nhwc;
    const std::int64_t n = shape.n, c = shape.c, hw = shape.hw(), numel = shape.numel();
    const std::string variant = shape.name() + " g2";
    nlohmann::json params = shape.params();
    params["groups"] = groups;
    const auto call = [&] {
      if (nhwc) ops::channel_shuffle_nhwc(q, n, c, hw, groups, in.data(), out.data());
      else ops::channel_shuffle_nchw(q, n, c, hw, groups, in.data(), out.data());
    };
    OpResult r;
    r.variant = variant;
    r.params = params;
    r.bytes = 2.0 * double(numel) * sizeof(float);
    q.fill(out.data(), std::numeric_limits<float>::quiet_NaN(), std::size_t(numel));
    call();
    auto got = out.download(q);
    got.resize(std::size_t(numel));
    r.max_error = mismatches(nhwc, n, c, hw, groups, host, got) == 0 ? 0.0 : 1.0;   // a permutation
    r.tolerance = 0;
    if (!ctx.dump_dir.empty()) {
      ctx.dump(variant, params, "in", std::vector<float>(host.begin(), host.begin() + numel), shape.dims());
      ctx.dump(variant, params, "out", got, shape.dims());
    }
    r.portable = ctx.time(call);
#if PORTKERN_HAVE_DNNL
    r.vendor = onednn::compare(
        ctx, r,
        [&](onednn::Call& call) {
          const dnnl::memory::desc data({n, c, shape.h, shape.h}, onednn::f32,
                                        nhwc ? onednn::tag::nhwc : onednn::tag::nchw);
          call.add<dnnl::shuffle_forward>(
              {{dnnl::prop_kind::forward_inference, data, 1, int(c / groups)}, call.engine()},
              {{DNNL_ARG_SRC, call.memory(data, in.data())}, {DNNL_ARG_DST, call.output(data, out.data())}});
        },
        [&] {
          auto vendor = out.download(q);
          vendor.resize(std::size_t(numel));
          return mismatches(nhwc, n, c, hw, groups, host, vendor) == 0 ? 0.0 : 1.0;
        });
#endif
#if PORTKERN_HAVE_CUDA
    const auto plan = impl::make_plan(nhwc, n, c, hw, groups, in.data(), out.data());
    if (ctx.on_gpu()) {   // the twin must agree too
      q.fill(out.data(), std::numeric_limits<float>::quiet_NaN(), std::size_t(numel));
      impl::native_cuda(q, plan, in.data(), out.data());
      auto native = out.download(q);
      native.resize(std::size_t(numel));
      if (native != got) r.max_error = std::max(r.max_error, 1.0);   // the twin must agree too
    }
    r.native = ctx.time_native([&] { impl::native_cuda(q, plan, in.data(), out.data()); });
#endif
    results.push_back(std::move(r));
  }
  return results;
}
