// concat: the spec's sweep nhead in {6, 12, 24, 48}: [64 * nhead][s1 | s2][128] f32 with s1 + s2 = 1024 and
// s1 = rand() % 1023 + 1 after srand(nhead) (the C library's rand, as the original). Small: nhead {6, 12}
// with seq_len 256. Inputs are in[i] = i % 1000003; the whole output is verified exactly. On the CPU, oneDNN's
// concat along axis 1 of the same [outer][mid][inner] tensors into the same output buffer.
#include <cstdlib>

#include "bench/ops/onednn.hpp"
#include "bench/ops/op_bench.hpp"
#include "ops/concat/backends.hpp"
#include "ops/concat/reference.hpp"
#include "portkern/ops/concat.hpp"
#include "portkern/runtime/buffer.hpp"

namespace portkern::bench::opsuite {
namespace {

namespace concat_impl = portkern::ops::concat_impl;

OpResult run_concat(OpContext& ctx, int nhead, std::int64_t seq_len) {
  Queue& q = ctx.queue;
  std::srand(unsigned(nhead));
  const std::int64_t s1 = std::rand() % (seq_len - 1) + 1, s2 = seq_len - s1, s0 = 64 * nhead, d2 = 128;
  const std::int64_t n1 = s0 * s1 * d2, n2 = s0 * s2 * d2;
  std::vector<float> h1(static_cast<std::size_t>(n1)), h2(static_cast<std::size_t>(n2));
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n1; ++i) h1[std::size_t(i)] = float(i % 1000003);
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n2; ++i) h2[std::size_t(i)] = float(-(i % 999983));
  Buffer<float> in1(q.device(), n1), in2(q.device(), n2), out(q.device(), n1 + n2);
  in1.upload(q, h1);
  in2.upload(q, h2);
  const std::string variant = "f32 nhead " + std::to_string(nhead) + " [" + std::to_string(s0) + "][" +
                              std::to_string(s1) + "|" + std::to_string(s2) + "][" + std::to_string(d2) + "]";
  const nlohmann::json params = {{"s0", s0}, {"s1", s1}, {"s2", s2}, {"d2", d2}};

  OpResult r;
  r.variant = variant;
  r.params = params;
  r.bytes = 2.0 * double(n1 + n2) * sizeof(float);
  portkern::ops::concat(q, s0, s1, s2, d2, in1.data(), in2.data(), out.data());
  const auto got = out.download(q);
  const auto want = concat_impl::reference(s0, s1, s2, d2, h1, h2);
  r.max_error = got == want ? 0.0 : 1.0;   // a copy: exact or wrong
  r.tolerance = 0;
  ctx.dump(variant, params, "in1", h1, {s0, s1, d2});
  ctx.dump(variant, params, "in2", h2, {s0, s2, d2});
  ctx.dump(variant, params, "out", got, {s0, seq_len, d2});
  r.portable = ctx.time([&] { portkern::ops::concat(q, s0, s1, s2, d2, in1.data(), in2.data(), out.data()); });
#if PORTKERN_HAVE_DNNL
  r.vendor = onednn::compare(
      ctx, r,
      [&](onednn::Call& call) {
        const dnnl::memory::desc a({s0, s1, d2}, onednn::f32, onednn::tag::abc),
            b({s0, s2, d2}, onednn::f32, onednn::tag::abc), c({s0, seq_len, d2}, onednn::f32, onednn::tag::abc);
        call.add<dnnl::concat>({c, 1, {a, b}, call.engine()}, {{DNNL_ARG_MULTIPLE_SRC, call.memory(a, in1.data())},
                                                               {DNNL_ARG_MULTIPLE_SRC + 1, call.memory(b, in2.data())},
                                                               {DNNL_ARG_DST, call.output(c, out.data())}});
      },
      [&] { return out.download(q) == want ? 0.0 : 1.0; });
#endif
#if PORTKERN_HAVE_CUDA
  const concat_impl::Problem p{s0, s1 * d2, s2 * d2};
  auto native = [&] { concat_impl::native_cuda(q, p, in1.data(), in2.data(), out.data()); };
  if (ctx.on_gpu()) {   // the twin's output, over a poisoned buffer, checked as the portable one's
    q.fill(out.data(), -777.f, std::size_t(n1 + n2));
    native();
    if (out.download(q) != want) r.max_error = 1.0;
  }
  r.native = ctx.time_native(native);
#endif
  return r;
}

}  // namespace
}  // namespace portkern::bench::opsuite

PORTKERN_OP_BENCH(concat, false) {
  using namespace portkern::bench::opsuite;
  std::vector<OpResult> results;
  if (ctx.small) {
    for (int nhead : {6, 12}) results.push_back(run_concat(ctx, nhead, 256));
  } else {
    for (int nhead : {6, 12, 24, 48}) results.push_back(run_concat(ctx, nhead, 1024));
  }
  return results;
}
