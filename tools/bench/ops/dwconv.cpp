// dwconv: the spec's sweep, N = 128, C = 16, 224 x 224 (small: N = 4), depth multiplier m = 1..4 x k = 1, 3,
// 5, pad 1, inputs rand()/RAND_MAX-like uniform [0, 1) from a fixed seed (the spec's srand(123) stream is
// not reproduced; mt19937(123)), weights and bias from the same stream. The float64 reference checks images
// 0 and N-1 of every variant (the whole batch would be ~1e10 multiply-adds per variant); the dump holds
// image 0 (input, output), the weights and the bias. On the CPU, oneDNN's convolution_forward (direct) on the
// same NCHW tensors, groups = C with m output channels each (weights goihw, g = C, o = m, i = 1: the op's
// [C*m][k][k]; reordered once, outside the timing, into the layout oneDNN asks for), the same bias and
// padding, stride 1; the same two images checked. oneDNN's time with NHWC tensors (its jit depthwise kernels
// take them; with NCHW oneDNN 2.6 runs its GEMM-based convolution) goes into the note, the error of that
// output into the vendor's error.
#include <random>

#include "bench/ops/onednn.hpp"
#include "bench/ops/op_bench.hpp"
#include "ops/dwconv/backends.hpp"
#include "ops/dwconv/reference.hpp"
#include "portkern/ops/dwconv.hpp"
#include "portkern/runtime/buffer.hpp"

namespace portkern::bench::opsuite {
namespace {

namespace dwconv_impl = portkern::ops::dwconv_impl;

std::vector<float> uniform(std::size_t count, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(0.f, 1.f);
  std::vector<float> v(count);
  for (auto& x : v) x = dist(rng);
  return v;
}

OpResult run_dwconv(OpContext& ctx, const ops::DwconvShape& s, const std::vector<float>& in, const Buffer<float>& din,
                    Buffer<float>& dout) {
  Queue& q = ctx.queue;
  const std::int64_t OC = s.out_channels(), Ho = s.out_height(), Wo = s.out_width();
  const auto w = uniform(std::size_t(OC * s.kernel * s.kernel), 124 + s.multiplier * 10 + s.kernel);
  const auto b = uniform(std::size_t(OC), 125 + s.multiplier * 10 + s.kernel);
  Buffer<float> dw(q.device(), std::int64_t(w.size())), db(q.device(), OC);
  dw.upload(q, w);
  db.upload(q, b);
  const std::string variant = "f32 " + std::to_string(s.batch) + "x" + std::to_string(s.channels) + "x" +
                              std::to_string(s.height) + "x" + std::to_string(s.width) + " m" +
                              std::to_string(s.multiplier) + " k" + std::to_string(s.kernel);
  const nlohmann::json params = {{"N", s.batch}, {"C", s.channels}, {"H", s.height}, {"W", s.width},
                                 {"m", s.multiplier}, {"k", s.kernel}, {"pad", s.pad}};
  OpResult r;
  r.variant = variant;
  r.params = params;
  r.bytes = 4.0 * double(s.batch) * double(s.channels * s.height * s.width + OC * Ho * Wo) +
            4.0 * double(w.size() + b.size());
  auto call = [&] { ops::dwconv(q, s, din.data(), dw.data(), db.data(), dout.data()); };
  call();
  q.wait();
  const std::int64_t image_out = OC * Ho * Wo;
  const std::int64_t image_in = s.channels * s.height * s.width;
  r.tolerance = 2.0 * double(s.kernel * s.kernel + 1) * double(s.kernel * s.kernel + 1) * 6e-8;   // see the test
  // The max error of images 0 and N-1 of dout, or of an NHWC output on the host (infinity for a NaN); the
  // first call dumps image 0.
  std::vector<std::vector<double>> want;
  for (std::int64_t n : {std::int64_t(0), s.batch - 1}) {
    ops::DwconvShape one = s;
    one.batch = 1;
    want.push_back(dwconv_impl::reference(
        one, std::span<const float>(in.data() + n * image_in, std::size_t(image_in)), w, b.data(), 0, 1));
  }
  bool dumped = ctx.dump_dir.empty();
  auto error = [&](const std::vector<float>* nhwc) {
    double worst = 0;
    for (std::int64_t n : {std::int64_t(0), s.batch - 1}) {
      std::vector<float> got(static_cast<std::size_t>(image_out));
      if (nhwc) {
        for (std::int64_t c = 0; c < OC; ++c)
          for (std::int64_t p = 0; p < Ho * Wo; ++p)
            got[std::size_t(c * Ho * Wo + p)] = (*nhwc)[std::size_t((n * Ho * Wo + p) * OC + c)];
      } else {
        q.copy(got.data(), dout.data() + n * image_out, got.size());
        q.wait();
      }
      worst = std::max(worst, max_abs_diff(got, want[n == 0 ? 0 : 1]));
      if (n == 0 && !dumped) {
        const std::vector<float> in0(in.begin(), in.begin() + image_in);
        ctx.dump(variant, params, "in", in0, {1, s.channels, s.height, s.width});
        ctx.dump(variant, params, "weight", w, {OC, 1, s.kernel, s.kernel});
        ctx.dump(variant, params, "bias", b, {OC});
        ctx.dump(variant, params, "out", got, {1, OC, Ho, Wo});
        dumped = true;
      }
    }
    return worst;
  };
  r.max_error = error(nullptr);
  r.portable = ctx.time(call);
#if PORTKERN_HAVE_DNNL
  // oneDNN's convolution with src and dst in `layout`: NCHW reads and writes the op's buffers; NHWC reads a
  // copy of the input reordered once, outside the timing, and writes `nhwc_out`.
  std::vector<float> nhwc_out;
  const auto onednn_conv = [&](onednn::tag layout) {
    const bool nchw = layout == onednn::tag::nchw;
    return onednn::compare(
        ctx, r,
        [&](onednn::Call& vendor) {
          const std::int64_t k = s.kernel, pad = s.pad;
          const dnnl::memory::dims in_dims = {s.batch, s.channels, s.height, s.width},
                                   w_dims = {s.channels, s.multiplier, 1, k, k};
          const dnnl::memory::desc src(in_dims, onednn::f32, layout), dst({s.batch, OC, Ho, Wo}, onednn::f32, layout),
              bias({OC}, onednn::f32, onednn::tag::x), weights(w_dims, onednn::f32, onednn::tag::goihw),
              any_weights(w_dims, onednn::f32, onednn::tag::any);
          const dnnl::convolution_forward::primitive_desc pd(
              {dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct, src, any_weights, bias, dst,
               {1, 1}, {pad, pad}, {pad, pad}},
              vendor.engine());
          if (!nchw) nhwc_out.resize(std::size_t(s.batch * image_out));
          const dnnl::memory::desc op_src(in_dims, onednn::f32, onednn::tag::nchw);
          vendor.add<dnnl::convolution_forward>(
              pd, {{DNNL_ARG_SRC, vendor.reordered(vendor.memory(op_src, din.data()), src)},
                   {DNNL_ARG_WEIGHTS, vendor.reordered(vendor.memory(weights, dw.data()), pd.weights_desc())},
                   {DNNL_ARG_BIAS, vendor.memory(bias, db.data())},
                   {DNNL_ARG_DST, vendor.output(dst, nchw ? dout.data() : nhwc_out.data())}});
        },
        [&] { return nchw ? error(nullptr) : error(&nhwc_out); });
  };
  r.vendor = onednn_conv(onednn::tag::nchw);
  // oneDNN's own layout, for the record: its time in the note, its error in vendor_max_error with the NCHW one.
  if (const auto nhwc = onednn_conv(onednn::tag::nhwc)) {
    r.vendor->max_error = std::max(r.vendor->max_error, nhwc->max_error);
    char text[160] = "";
    if (nhwc->time)
      std::snprintf(text, sizeof text, "NHWC src/dst (input reordered once, untimed): %s %.3f ms, max error %.1e",
                    nhwc->impl.c_str(), nhwc->time->median_ms, nhwc->max_error);
    r.vendor->note += (r.vendor->note.empty() ? "" : "; ") + (nhwc->time ? std::string(text) : "NHWC " + nhwc->note);
  }
#endif
#if PORTKERN_HAVE_CUDA
  auto native = [&] { dwconv_impl::native_cuda(q, s, din.data(), dw.data(), db.data(), dout.data()); };
  if (ctx.on_gpu()) {   // the twin's output on the same data, over a poisoned buffer
    q.fill(dout.data(), -777.f, std::size_t(s.batch * image_out));
    native();
    r.max_error = std::max(r.max_error, error(nullptr));
  }
  r.native = ctx.time_native(native);
#endif
  return r;
}

}  // namespace
}  // namespace portkern::bench::opsuite

PORTKERN_OP_BENCH(dwconv, false) {
  using namespace portkern::bench::opsuite;
  using portkern::Buffer;
  const std::int64_t N = ctx.small ? 4 : 128, C = 16, H = 224, W = 224;
  const auto in = uniform(std::size_t(N * C * H * W), 123);
  Buffer<float> din(ctx.queue.device(), N * C * H * W);
  din.upload(ctx.queue, in);
  Buffer<float> dout(ctx.queue.device(), N * C * 4 * (H + 2) * (W + 2));   // the largest output (m 4, k 1)
  std::vector<OpResult> results;
  for (int m = 1; m <= 4; ++m)
    for (int k : {1, 3, 5})
      results.push_back(run_dwconv(ctx, portkern::ops::DwconvShape{N, C, H, W, m, k, 1}, in, din, dout));
  return results;
}
