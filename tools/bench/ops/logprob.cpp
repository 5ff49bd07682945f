// logprob: HEAD's T=1024, B=8, V=50257 (Vp = 50272, 1.65 GB of logits) and the 2024 / benchmarks.yaml
// sizes T=100, B=128, V=60000 (3.07 GB); every length = T as at HEAD. Small: B=2, T=128 and B=16, T=25.
// Logits uniform [-6, 6], ids uniform in [0, V), fixed seeds. The whole float64 reference runs (about
// 0.4 G exp at the default sizes, a few seconds).
//
// On the CPU, oneDNN's softmax_v2_forward (softmax_log) over the vocab of every [padded_vocab] row of the
// same logits, its log-probabilities checked at the ids the op gathers (rows t < length - 1). Not the op's
// work: oneDNN writes the whole log-softmax (rows x vocab floats) where the op writes one value a row, it
// runs every row (the op skips each sequence's last), and it neither gathers nor sums a sequence.
#include <cmath>
#include <cstdint>
#include <random>

#include "bench/ops/onednn.hpp"
#include "bench/ops/op_bench.hpp"
#include "ops/logprob/backends.hpp"
#include "ops/logprob/reference.hpp"
#include "portkern/ops/logprob.hpp"
#include "portkern/runtime/buffer.hpp"

namespace portkern::bench::opsuite {
namespace {

namespace impl = portkern::ops::logprob_impl;

OpResult run_logprob(OpContext& ctx, std::int64_t steps, std::int64_t batch, std::int64_t vocab) {
  Queue& q = ctx.queue;
  const std::int64_t padded = (vocab + 31) / 32 * 32;
  std::vector<float> logits(std::size_t(batch * steps * padded));
  std::uint64_t state = 0x9E3779B97F4A7C15ull;
  for (auto& x : logits) {   // xorshift64*: 24 random bits -> uniform [-6, 6)
    state ^= state >> 12, state ^= state << 25, state ^= state >> 27;
    x = float(double((state * 0x2545F4914F6CDD1Dull) >> 40) * (12.0 / 16777216.0) - 6.0);
  }
  std::mt19937 rng(123);
  std::vector<int> ids(std::size_t(batch * steps));
  std::vector<int> lengths(std::size_t(batch), static_cast<int>(steps));
  for (auto& id : ids) id = int(rng() % std::uint32_t(vocab));
  Buffer<float> d_logits(q.device(), std::int64_t(logits.size())), lp(q.device(), std::max<std::int64_t>(1, batch * (steps - 1))),
      cum(q.device(), batch);
  Buffer<int> d_ids(q.device(), std::int64_t(ids.size())), d_lengths(q.device(), batch);
  d_logits.upload(q, logits);
  d_ids.upload(q, ids);
  d_lengths.upload(q, lengths);

  OpResult r;
  r.variant = "f32 B" + std::to_string(batch) + " T" + std::to_string(steps) + " V" + std::to_string(vocab);
  r.params = {{"batch", batch}, {"steps", steps}, {"vocab", vocab}, {"padded_vocab", padded}};
  const double rows = double(batch) * double(steps - 1);   // every length is T: all rows counted
  r.bytes = rows * double(vocab) * 4 + double(batch * steps) * 4 * 2 + rows * 4 + double(batch) * 4;
  auto call = [&] {
    portkern::ops::logprob(q, batch, steps, vocab, padded, d_logits.data(), d_ids.data(), d_lengths.data(), lp.data(),
                           cum.data());
  };
  call();
  auto got_lp = lp.download(q);
  got_lp.resize(std::size_t(rows));
  const auto got_cum = cum.download(q);
  const auto ref = impl::reference(batch, steps, vocab, padded, logits, ids, lengths);
  // The spec's checks: lp within 1e-3, cum within 1e-1. Reported as one figure: the lp error, or the cum
  // error scaled onto lp's tolerance when that is the larger violation.
  auto error = [&](const std::vector<float>& out_lp, const std::vector<float>& out_cum) {
    double err_lp = 0, err_cum = 0;
    for (std::size_t i = 0; i < ref.log_probs.size(); ++i) {
      const double e = std::abs(double(out_lp[i]) - ref.log_probs[i]);
      err_lp = std::isnan(e) ? INFINITY : std::max(err_lp, e);
    }
    for (std::size_t i = 0; i < ref.cum.size(); ++i) {
      const double e = std::abs(double(out_cum[i]) - ref.cum[i]);
      err_cum = std::isnan(e) ? INFINITY : std::max(err_cum, e);
    }
    return std::max(err_lp, err_cum * 1e-2);
  };
  r.tolerance = 1e-3;
  r.max_error = error(got_lp, got_cum);
  ctx.dump(r.variant, r.params, "logits", logits, {batch, steps, padded});
  ctx.dump(r.variant, r.params, "ids", ids, {batch, steps});
  ctx.dump(r.variant, r.params, "lengths", lengths, {batch});
  ctx.dump(r.variant, r.params, "log_probs", got_lp, {batch, steps - 1});
  ctx.dump(r.variant, r.params, "cum_log_probs", got_cum, {batch});
  r.portable = ctx.time(call);   // includes the host-side check of the lengths (a copy of B ints and a sync)
#if PORTKERN_HAVE_DNNL
  std::vector<float> log_softmax;
  r.vendor = onednn::compare(
      ctx, r,
      [&](onednn::Call& vendor) {
        const dnnl::memory::desc src({batch * steps, vocab}, onednn::f32, dnnl::memory::dims{padded, 1}),
            dst({batch * steps, vocab}, onednn::f32, onednn::tag::ab);
        const dnnl::softmax_v2_forward::primitive_desc pd(
            {dnnl::prop_kind::forward_inference, dnnl::algorithm::softmax_log, src, dst, 1}, vendor.engine());
        log_softmax.resize(std::size_t(batch * steps * vocab));
        vendor.add<dnnl::softmax_v2_forward>(
            pd, {{DNNL_ARG_SRC, vendor.memory(src, d_logits.data())},
                 {DNNL_ARG_DST, vendor.output(dst, log_softmax.data())}});
        vendor.report.bytes = 2.0 * double(batch * steps) * double(vocab) * 4;
        vendor.report.note = "writes the whole log-softmax of all B x T rows (the op reads the B x (T-1) it uses "
                             "and writes one value a row); no gather, no per-sequence sum";
        if (vocab != padded) vendor.report.note += "; its rows are strided (vocab < padded vocab), not dense";
      },
      [&] {   // its log-probabilities at the gathered ids, against the reference's
        double worst = 0;
        for (std::int64_t b = 0; b < batch; ++b)
          for (std::int64_t t = 0; t + 1 < lengths[std::size_t(b)]; ++t) {
            const std::int64_t row = b * steps + t;
            const double got = log_softmax[std::size_t(row * vocab + ids[std::size_t(row + 1)])];
            const double e = std::abs(got - ref.log_probs[std::size_t(b * (steps - 1) + t)]);
            worst = std::isnan(e) ? INFINITY : std::max(worst, e);
          }
        return worst;
      });
#endif
#if PORTKERN_HAVE_CUDA
  impl::Args a;
  a.batch = batch, a.steps = steps, a.vocab = vocab, a.padded = padded;
  a.logits = d_logits.data(), a.ids = d_ids.data(), a.lengths = d_lengths.data(), a.log_probs = lp.data(),
  a.cum = cum.data();
  a.vectorized = reinterpret_cast<std::uintptr_t>(a.logits) % 16 == 0 && padded % 4 == 0;
  if (ctx.on_gpu()) {   // the twin's outputs, over poisoned buffers, checked as the portable one's
    q.fill(lp.data(), -777.f, std::size_t(rows));
    q.fill(cum.data(), -777.f, std::size_t(batch));
    impl::native_cuda(q, a);
    r.max_error = std::max(r.max_error, error(lp.download(q), cum.download(q)));
  }
  r.native = ctx.time_native([&] { impl::native_cuda(q, a); });
#endif
  return r;
}

}  // namespace
}  // namespace portkern::bench::opsuite

PORTKERN_OP_BENCH(logprob, false) {
  using namespace portkern::bench::opsuite;
  if (ctx.small) return {run_logprob(ctx, 128, 2, 50257), run_logprob(ctx, 25, 16, 60000)};
  return {run_logprob(ctx, 1024, 8, 50257), run_logprob(ctx, 100, 128, 60000)};
}
