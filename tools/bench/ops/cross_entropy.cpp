// cross_entropy (backward): the spec's bs = 128, W = 81 classes, H = 8732 positions (SSD300 / COCO; 90.5 M
// elements) for half, float and double; small: bs = 16. Inputs as the original: L, weight, grad_out,
// grad_out_neg uniform [0, 1) (L is not a valid log-probability; the formula does not care), target uniform
// in [0, 79]; mask is 0/1 at random here (the original's rand() % 1 is always 0, which never exercises
// grad_out_neg; the cost is the same). Fixed seeds. The whole float64 reference runs (0.09 G exp per dtype).
//
// On the CPU, oneDNN's softmax_v2_backward (softmax_log) over the class axis: diff_src = G - exp(L) * sum_k G,
// which is the op's gradient for G = gamma one-hot at the target. G is built from the same inputs once,
// outside the timing, so oneDNN reads a third full tensor where the op reads five per-position vectors.
// oneDNN 2.6 has no f64; its f16 attempt reports why it is unavailable.
#include <cmath>
#include <cstdint>
#include <random>

#include "bench/ops/onednn.hpp"
#include "bench/ops/op_bench.hpp"
#include "ops/cross_entropy/backends.hpp"
#include "ops/cross_entropy/reference.hpp"
#include "portkern/ops/cross_entropy.hpp"
#include "portkern/runtime/buffer.hpp"

namespace portkern::bench::opsuite {
namespace {

namespace impl = portkern::ops::cross_entropy_impl;

template <class T>
T from_float(float x) {
  if constexpr (std::is_same_v<T, half>) return portkern::kernel::to_half(x);
  else return T(x);
}

template <class T>
OpResult run_cross_entropy(OpContext& ctx, std::int64_t batch, std::int64_t classes, std::int64_t positions) {
  Queue& q = ctx.queue;
  const std::int64_t n = batch * classes * positions, m = batch * positions;
  std::uint64_t state = 0x243F6A8885A308D3ull;
  auto uniform = [&] {
    state ^= state >> 12, state ^= state << 25, state ^= state >> 27;
    return float(double((state * 0x2545F4914F6CDD1Dull) >> 40) / 16777216.0);
  };
  std::vector<T> L(static_cast<std::size_t>(n)), w(static_cast<std::size_t>(m)), go(static_cast<std::size_t>(m)),
      gn(static_cast<std::size_t>(m));
  for (auto& x : L) x = from_float<T>(uniform());
  for (std::size_t i = 0; i < w.size(); ++i) w[i] = from_float<T>(uniform()), go[i] = from_float<T>(uniform()),
                                             gn[i] = from_float<T>(uniform());
  std::mt19937 rng(123);
  std::vector<std::int64_t> target(static_cast<std::size_t>(m)), mask(static_cast<std::size_t>(m));
  for (std::size_t i = 0; i < target.size(); ++i) target[i] = rng() % 80, mask[i] = rng() % 2;
  Buffer<T> dL(q.device(), n), dw(q.device(), m), dgo(q.device(), m), dgn(q.device(), m), grad(q.device(), n);
  Buffer<std::int64_t> dt(q.device(), m), dm(q.device(), m);
  dL.upload(q, L), dw.upload(q, w), dgo.upload(q, go), dgn.upload(q, gn), dt.upload(q, target), dm.upload(q, mask);

  const char* dtype = std::is_same_v<T, half> ? "float16" : std::is_same_v<T, float> ? "float32" : "float64";
  OpResult r;
  r.variant = std::string(std::is_same_v<T, half> ? "f16 " : std::is_same_v<T, float> ? "f32 " : "f64 ") +
              std::to_string(batch) + "x" + std::to_string(classes) + "x" + std::to_string(positions);
  r.params = {{"batch", batch}, {"classes", classes}, {"positions", positions}, {"dtype", dtype}};
  r.bytes = 2.0 * double(n) * sizeof(T) + double(m) * (2 * 8 + 3 * sizeof(T));
  auto call = [&] {
    portkern::ops::cross_entropy_backward(q, batch, classes, positions, dL.data(), dt.data(), dw.data(), dgo.data(),
                                          dgn.data(), dm.data(), grad.data());
  };
  call();
  const auto got = grad.download(q);
  const auto ref = impl::reference<T>(batch, classes, positions, L, target, w, go, gn, mask);
  auto error = [&](const std::vector<T>& out) {
    double worst = 0;
    for (std::size_t i = 0; i < ref.size(); ++i) {
      const double e = std::abs(impl::as_double(out[i]) - ref[i]);
      worst = std::isnan(e) ? INFINITY : std::max(worst, e);
    }
    return worst;
  };
  r.max_error = error(got);
  // |grad| <= |gamma| (1 + e) < 2 * 3.72: half rounds once from float (half an ulp below 8 = 2^-9 = 2e-3);
  // float / double: a few ulps. The spec's check is 4e-3 for all three.
  r.tolerance = std::is_same_v<T, half> ? 4e-3 : std::is_same_v<T, float> ? 1e-5 : 1e-12;
  ctx.dump(r.variant, r.params, "log_probs", L, {batch, classes, positions});
  ctx.dump(r.variant, r.params, "target", target, {batch, positions});
  ctx.dump(r.variant, r.params, "weight", w, {batch, positions});
  ctx.dump(r.variant, r.params, "grad_out", go, {batch, positions});
  ctx.dump(r.variant, r.params, "grad_out_neg", gn, {batch, positions});
  ctx.dump(r.variant, r.params, "mask", mask, {batch, positions});
  ctx.dump(r.variant, r.params, "grad", got, {batch, classes, positions});
  r.portable = ctx.time(call);
#if PORTKERN_HAVE_DNNL
  if constexpr (std::is_same_v<T, double>) {
    if (!ctx.on_gpu()) {
      r.vendor.emplace();
      r.vendor->name = "onednn";
      r.vendor->note = "unavailable: oneDNN 2.6 has no f64";
    }
  } else {
    std::vector<T> G;
    r.vendor = onednn::compare(
        ctx, r,
        [&](onednn::Call& vendor) {
          const auto type = std::is_same_v<T, half> ? onednn::f16 : onednn::f32;
          const dnnl::memory::desc data({batch, classes, positions}, type, onednn::tag::abc);
          const dnnl::softmax_v2_forward::primitive_desc hint(
              {dnnl::prop_kind::forward_training, dnnl::algorithm::softmax_log, data, data, 1}, vendor.engine());
          const dnnl::softmax_v2_backward::primitive_desc pd({dnnl::algorithm::softmax_log, data, data, data, 1},
                                                             vendor.engine(), hint);
          G.assign(std::size_t(n), from_float<T>(0.f));
          for (std::int64_t b = 0; b < batch; ++b)
            for (std::int64_t h = 0; h < positions; ++h) {
              const std::size_t i = std::size_t(b * positions + h);
              const double gamma = -(impl::as_double(go[i]) + double(mask[i]) * impl::as_double(gn[i])) *
                                   impl::as_double(w[i]);
              G[std::size_t((b * classes + target[i]) * positions + h)] = from_float<T>(float(gamma));
            }
          vendor.add<dnnl::softmax_v2_backward>(pd, {{DNNL_ARG_DST, vendor.memory(data, dL.data())},
                                                     {DNNL_ARG_DIFF_DST, vendor.memory(data, G.data())},
                                                     {DNNL_ARG_DIFF_SRC, vendor.output(data, grad.data())}});
          vendor.report.bytes = 3.0 * double(n) * sizeof(T);
          vendor.report.note = "reads G = gamma one-hot at the target (built once from the same inputs, outside the "
                               "timing): three full tensors where the op moves two";
        },
        [&] { return error(grad.download(q)); });
  }
#endif
#if PORTKERN_HAVE_CUDA
  impl::Args<T> a;
  a.batch = batch, a.classes = classes, a.positions = positions, a.log_probs = dL.data(), a.target = dt.data();
  a.weight = dw.data(), a.grad_out = dgo.data(), a.grad_out_neg = dgn.data(), a.mask = dm.data(), a.grad = grad.data();
  a.width = impl::choose_width<T>(positions, a.log_probs, a.grad);
  if (ctx.on_gpu()) {   // the twin's gradient, over a poisoned buffer, checked as the portable one's
    q.fill(grad.data(), from_float<T>(-777.f), std::size_t(n));
    impl::native_cuda<T>(q, a);
    r.max_error = std::max(r.max_error, error(grad.download(q)));
  }
  r.native = ctx.time_native([&] { impl::native_cuda<T>(q, a); });
#endif
  return r;
}

}  // namespace
}  // namespace portkern::bench::opsuite

PORTKERN_OP_BENCH(cross_entropy, false) {
  using namespace portkern::bench::opsuite;
  const std::int64_t batch = ctx.small ? 16 : 128;
  return {run_cross_entropy<portkern::half>(ctx, batch, 81, 8732), run_cross_entropy<float>(ctx, batch, 81, 8732),
          run_cross_entropy<double>(ctx, batch, 81, 8732)};
}
