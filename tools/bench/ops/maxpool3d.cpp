// maxpool3d: the spec's 96 x 2048 x 2048 stack, window 2 stride 2, values rand() % 256 / 255 (here a
// fixed-seed mt19937, seed 2), plus window 3 stride 2 on the same data (the scalar path). Small: 16 x 1024^2.
// Checked exactly (a max is exact) against the reference. On the CPU, oneDNN's pooling_forward (max, no
// padding: its floor output extent is the op's) over the same planes as one NCHW image of C = z channels (the
// same memory as [z][h][w]; oneDNN 2.6 takes its jit kernel for it, its simple_nchw one for N = z, C = 1).
#include <algorithm>
#include <random>

#include "bench/ops/onednn.hpp"
#include "bench/ops/op_bench.hpp"
#include "ops/maxpool3d/backends.hpp"
#include "ops/maxpool3d/plan.hpp"
#include "ops/maxpool3d/reference.hpp"
#include "portkern/ops/maxpool3d.hpp"
#include "portkern/runtime/buffer.hpp"

PORTKERN_OP_BENCH(maxpool3d, false) {
  using namespace portkern::bench::opsuite;
  using namespace portkern;
  namespace impl = portkern::ops::maxpool3d_impl;
  Queue& q = ctx.queue;
  const std::int64_t z = ctx.small ? 16 : 96, h = ctx.small ? 1024 : 2048, w = h;
  std::vector<float> host(static_cast<std::size_t>(z * h * w));
  std::mt19937 rng(2);
  for (auto& x : host) x = float(rng() % 256) / 255.f;
  Buffer<float> in(q.device(), z * h * w), out(q.device(), z * (h / 2) * (w / 2));
  in.upload(q, host);

  std::vector<OpResult> results;
  for (const std::int64_t window : {2, 3}) {
    const std::int64_t stride = 2;
    const std::int64_t h_out = ops::maxpool3d_output_extent(h, window, stride);
    const std::int64_t w_out = ops::maxpool3d_output_extent(w, window, stride);
    const std::string variant = "f32 " + std::to_string(z) + "x" + std::to_string(h) + "x" + std::to_string(w) +
                                " k" + std::to_string(window) + " s" + std::to_string(stride);
    const nlohmann::json params = {{"z", z}, {"h", h}, {"w", w}, {"window", window}, {"stride", stride}};
    OpResult r;
    r.variant = variant;
    r.params = params;
    const std::int64_t rows_read = (h_out - 1) * stride + window, cols_read = (w_out - 1) * stride + window;
    r.bytes = 4.0 * double(z) * (double(rows_read) * double(cols_read) + double(h_out) * double(w_out));
    const auto call = [&] { ops::maxpool3d(q, z, h, w, window, stride, in.data(), out.data()); };
    call();
    auto got = out.download(q);
    got.resize(std::size_t(z * h_out * w_out));
    const auto want = impl::reference(z, h, w, window, stride, host);
    r.max_error = got == want ? 0.0 : 1.0;
    r.tolerance = 0;
    ctx.dump(variant, params, "in", host, {z, h, w});
    ctx.dump(variant, params, "out", got, {z, h_out, w_out});
    r.portable = ctx.time(call);
#if PORTKERN_HAVE_DNNL
    r.vendor = onednn::compare(
        ctx, r,
        [&](onednn::Call& call) {
          const dnnl::memory::desc src({1, z, h, w}, onednn::f32, onednn::tag::nchw),
              dst({1, z, h_out, w_out}, onednn::f32, onednn::tag::nchw);
          call.add<dnnl::pooling_forward>({{dnnl::prop_kind::forward_inference, dnnl::algorithm::pooling_max, src, dst,
                                            {stride, stride}, {window, window}, {0, 0}, {0, 0}},
                                           call.engine()},
                                          {{DNNL_ARG_SRC, call.memory(src, in.data())},
                                           {DNNL_ARG_DST, call.output(dst, out.data())}});
        },
        [&] {
          auto vendor = out.download(q);
          vendor.resize(want.size());
          return vendor == want ? 0.0 : 1.0;
        });
#endif
#if PORTKERN_HAVE_CUDA
    impl::Plan plan;
    plan.z = z, plan.h_in = h, plan.w_in = w, plan.window = window, plan.stride = stride;
    plan.h_out = h_out, plan.w_out = w_out, plan.vector = window == 2 && stride == 2 && w % 8 == 0;
    if (ctx.on_gpu()) {   // the twin must agree too
      q.fill(out.data(), 0.f, std::size_t(z * h_out * w_out));
      impl::native_cuda(q, plan, in.data(), out.data());
      auto native = out.download(q);
      native.resize(got.size());
      if (native != want) r.max_error = 1.0;   // the twin must agree too
    }
    r.native = ctx.time_native([&] { impl::native_cuda(q, plan, in.data(), out.data()); });
#endif
    results.push_back(std::move(r));
  }
  return results;
}
