// channel_shuffle: the spec's sweep N {1,4,16,64} x C {32,128,512} x 224x224, groups 2, NCHW and NHWC (24
// rows; small: N {1,4} x C {32,128} x 112x112). One input buffer of the largest size serves every shape (its
// prefix); the input is i mod 1000003 rather than the spec's i/numel, whose float values repeat at 1.6e9
// elements and would hide a wrong permutation. Checked exactly against the definition (in[src] == out).
#include <algorithm>
#include <limits>

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
  // Default: N {1, 16, 64} x C {32, 512}, the corners and middle of the spec's 12 shapes (all 12 spend four
  // minutes of the GPU machine's host time generating and checking 1.6e9-element tensors).
  const std::vector<std::int64_t> ns = ctx.small ? std::vector<std::int64_t>{1, 4} : std::vector<std::int64_t>{1, 16, 64};
  const std::vector<std::int64_t> cs =
      ctx.small ? std::vector<std::int64_t>{32, 128} : std::vector<std::int64_t>{32, 512};
  const std::int64_t h = ctx.small ? 112 : 224, w = h, hw = h * w, groups = 2;
  const std::int64_t max_numel = ns.back() * cs.back() * hw;
  std::vector<float> host(static_cast<std::size_t>(max_numel));
  for (std::int64_t i = 0; i < max_numel; ++i) host[std::size_t(i)] = float(i % 1000003);
  Buffer<float> in(q.device(), max_numel), out(q.device(), max_numel);
  in.upload(q, host);

  std::vector<OpResult> results;
  for (const bool nhwc : {false, true})
    for (const std::int64_t n : ns)
      for (const std::int64_t c : cs) {
        const std::int64_t numel = n * c * hw;
        const std::string variant = std::string(nhwc ? "NHWC " : "NCHW ") + std::to_string(n) + "x" +
                                    std::to_string(c) + "x" + std::to_string(h) + "x" + std::to_string(w) + " g2";
        const nlohmann::json params = {{"layout", nhwc ? "nhwc" : "nchw"}, {"n", n}, {"c", c}, {"h", h}, {"w", w},
                                       {"groups", groups}};
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
          const std::vector<std::int64_t> shape =
              nhwc ? std::vector<std::int64_t>{n, h, w, c} : std::vector<std::int64_t>{n, c, h, w};
          ctx.dump(variant, params, "in", std::vector<float>(host.begin(), host.begin() + numel), shape);
          ctx.dump(variant, params, "out", got, shape);
        }
        r.portable = ctx.time(call);
#if PORTKERN_HAVE_CUDA
        impl::Plan plan;
        plan.n = n, plan.c = c, plan.hw = hw, plan.groups = groups, plan.k = c / groups, plan.nhwc = nhwc;
        plan.vector = !nhwc && hw % 4 == 0;   // Buffer memory is 256-byte aligned
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
