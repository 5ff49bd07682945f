// gelu: the spec's HEAD sizes, 8 x 4096 x {512, 2048} fp16 (small: 8 x 512 x {512, 2048}); src uniform in
// [0, 1), bias integers in [-6, 5], fixed seeds. Verified once on fresh input against the float64 GELU
// (every element); then timed in place as the original does, so the data drifts over the iterations
// (large positive biases eventually saturate to +inf, which costs the same).
//
// On the CPU, oneDNN: one binary add of the bias row with an eltwise gelu_tanh post-op (one pass over the
// data), out of place into a poisoned output, on the same values: f16 where oneDNN implements it, else f32
// (converted once, outside the timing; 2.6 has no f16 binary or eltwise on the CPU). Either way its add is
// not rounded to half before the GELU as the op's is, so its tolerance adds the largest effect that rounding
// has on this data (float64 on the host).
#include <algorithm>
#include <cmath>
#include <random>

#include "bench/ops/onednn.hpp"
#include "bench/ops/op_bench.hpp"
#include "ops/gelu/backends.hpp"
#include "ops/gelu/reference.hpp"
#include "portkern/ops/gelu.hpp"
#include "portkern/runtime/buffer.hpp"

namespace portkern::bench::opsuite {
namespace {

namespace gelu_impl = portkern::ops::gelu_impl;

double value(half x) { return kernel::to_float(x); }
double value(float x) { return x; }

#if PORTKERN_HAVE_DNNL
double gelu_tanh(double u) { return 0.5 * u * (1 + std::tanh(0.79788456 * (u + 0.044715 * u * u * u))); }

// The largest change, in the error measure of run_gelu, that the op's rounding of src + bias to half makes.
double half_add_effect(std::int64_t hidden, const std::vector<half>& src, const std::vector<half>& bias) {
  double worst = 0;
  const auto n = std::int64_t(src.size());
#pragma omp parallel for reduction(max : worst) schedule(static)
  for (std::int64_t i = 0; i < n; ++i) {
    const double exact = value(src[std::size_t(i)]) + value(bias[std::size_t(i % hidden)]);
    const double rounded = value(kernel::to_half(float(exact)));
    worst = std::max(worst, std::abs(gelu_tanh(exact) - gelu_tanh(rounded)) / (std::abs(gelu_tanh(rounded)) + 1e-3));
  }
  return worst;
}
#endif

OpResult run_gelu(OpContext& ctx, std::int64_t batch, std::int64_t seq, std::int64_t hidden) {
  Queue& q = ctx.queue;
  const std::int64_t numel = batch * seq * hidden;
  std::mt19937 rng(static_cast<unsigned>(hidden));
  std::uniform_real_distribution<float> unit(0.f, 1.f);
  std::vector<half> src_host(static_cast<std::size_t>(numel)), bias_host(static_cast<std::size_t>(hidden));
  for (auto& v : src_host) v = kernel::to_half(unit(rng));
  for (auto& v : bias_host) v = kernel::to_half(float(int(rng() % 12) - 6));
  Buffer<half> src(q.device(), numel), bias(q.device(), hidden);
  src.upload(q, src_host);
  bias.upload(q, bias_host);
  const std::string variant =
      "f16 " + std::to_string(batch) + "x" + std::to_string(seq) + "x" + std::to_string(hidden);
  const nlohmann::json params = {{"batch", batch}, {"seq", seq}, {"hidden", hidden}};

  OpResult r;
  r.variant = variant;
  r.params = params;
  r.bytes = 4.0 * double(numel) + 2.0 * double(hidden);   // src read and written in place, bias once
  r.flops = 0;
  portkern::ops::gelu(q, batch, seq, hidden, src.data(), bias.data());
  const auto got = src.download(q);
  const auto expected = gelu_impl::reference(hidden, src_host, bias_host);
  // |got - ref| / (|ref| + 1e-3) <= 5e-4 is |got - ref| <= 5e-4 |ref| + 5e-7: the half rounding (2^-11
  // relative) plus float evaluation, with the absolute part for results near 0 (as tests/ops/test_gelu.cpp).
  auto error = [&](const auto& out) {
    double worst = 0;
    for (std::size_t i = 0; i < expected.size(); ++i) {
      const double err = std::abs(value(out[i]) - expected[i]) / (std::abs(expected[i]) + 1e-3);
      if (!(err <= worst)) worst = std::isnan(err) ? INFINITY : err;
    }
    return worst;
  };
  r.max_error = error(got);
  r.tolerance = 5e-4;
  ctx.dump(variant, params, "src", src_host, {batch, seq, hidden});
  ctx.dump(variant, params, "bias", bias_host, {hidden});
  ctx.dump(variant, params, "out", got, {batch, seq, hidden});
  r.portable = ctx.time([&] { portkern::ops::gelu(q, batch, seq, hidden, src.data(), bias.data()); });
#if PORTKERN_HAVE_DNNL
  std::vector<half> out16;
  std::vector<float> src32, bias32, out32;
  r.vendor = onednn::compare(
      ctx, r,
      [&](onednn::Call& call) {
        dnnl::post_ops gelu;
        gelu.append_eltwise(1.f, dnnl::algorithm::eltwise_gelu_tanh, 0.f, 0.f);
        dnnl::primitive_attr attr;
        attr.set_post_ops(gelu);
        const auto add = [&](dnnl::memory::data_type type, const void* in, const void* row, void* out) {
          const dnnl::memory::desc data({batch * seq, hidden}, type, onednn::tag::ab),
              bias_row({1, hidden}, type, onednn::tag::ab);
          const dnnl::binary::primitive_desc pd({dnnl::algorithm::binary_add, data, bias_row, data}, attr,
                                                call.engine());   // first: it throws where f16 is not implemented
          call.add<dnnl::binary>(pd, {{DNNL_ARG_SRC_0, call.memory(data, in)},
                                     {DNNL_ARG_SRC_1, call.memory(bias_row, row)},
                                     {DNNL_ARG_DST, call.output(data, out)}});
        };
        call.report.tolerance = r.tolerance + half_add_effect(hidden, src_host, bias_host);
        call.report.note = "binary add + gelu_tanh post-op, out of place; its add is not rounded to half (tolerance "
                           "widened by that rounding's effect on this data)";
        try {
          out16.resize(src_host.size());
          add(onednn::f16, src_host.data(), bias_host.data(), out16.data());
          return;
        } catch (const dnnl::error& e) {
          if (e.status != dnnl_unimplemented) throw;
          out16.clear();
        }
        for (const half x : src_host) src32.push_back(kernel::to_float(x));
        for (const half x : bias_host) bias32.push_back(kernel::to_float(x));
        out32.resize(src32.size());
        add(onednn::f32, src32.data(), bias32.data(), out32.data());
        call.report.bytes = 8.0 * double(numel) + 4.0 * double(hidden);
        call.report.note += "; f16 is unimplemented in this oneDNN, so f32 on the same values: 8 bytes an element, "
                            "twice the op's (vendor GB/s counts them)";
      },
      [&] { return out16.empty() ? error(out32) : error(out16); });
#endif
#if PORTKERN_HAVE_CUDA
  auto native = [&] { gelu_impl::native_cuda(q, batch * seq, hidden, src.data(), bias.data()); };
  if (ctx.on_gpu()) {   // the twin on fresh input (the timing above changed src in place), checked as the portable
    src.upload(q, src_host);
    native();
    r.max_error = std::max(r.max_error, error(src.download(q)));
  }
  r.native = ctx.time_native(native);
#endif
  return r;
}

}  // namespace
}  // namespace portkern::bench::opsuite

PORTKERN_OP_BENCH(gelu, false) {
  using namespace portkern::bench::opsuite;
  const std::int64_t seq = ctx.small ? 512 : 4096;
  return {run_gelu(ctx, 8, seq, 512), run_gelu(ctx, 8, seq, 2048)};
}
