#include "bench/vendor_net.hpp"

#include <algorithm>
#include <memory>

#include "bench/vendor_conv2d.hpp"
#include "bench/vendor_gemm.hpp"
#include "portkern/error.hpp"

namespace portkern::bench {

net::Engine vendor_net_engine(const Device& device, int threads, Precision precision) {
  auto convs = std::make_shared<std::vector<VendorConv2d>>(vendor_conv2d(device, threads));
  auto gemms = std::make_shared<std::vector<VendorGemm>>(vendor_gemms(device, threads));
  // The vendor's calls at the precision: "tf32" ones first where it is allowed, then fp32 ("ieee") ones.
  const bool tf32 = precision == Precision::tf32;
  auto rank = [tf32](const std::string& p) { return tf32 && p == "tf32" ? 0 : p == "ieee" ? 1 : 2; };
  std::erase_if(*gemms, [&](const VendorGemm& g) { return rank(g.precision) > 1 || !g.sgemm; });
  std::stable_sort(gemms->begin(), gemms->end(),
                   [&](const VendorGemm& a, const VendorGemm& b) { return rank(a.precision) < rank(b.precision); });
  if (convs->empty()) throw Error("--gemm vendor: this build has no vendor convolution for " + device.name());
  // The linear layers on the convolution's library where it has a GEMM (oneDNN: the stronger CPU anchor).
  std::stable_partition(gemms->begin(), gemms->end(),
                        [&](const VendorGemm& g) { return g.name == convs->front().name; });
  net::Engine engine;
  engine.name = convs->front().name + (tf32 ? " (TF32)" : "");
  engine.prepare_conv = [convs, rank](Queue& q, const Conv2dDesc& desc, const float* input, const float* filter,
                                      const float* residual, float* output) -> net::PreparedConv {
    Conv2dDesc plain = conv2d_complete(desc);
    plain.bias = nullptr, plain.relu = false;
    auto calls = convs->front().prepare_in_place(q, plain, input, filter, output);
    std::stable_sort(calls.begin(), calls.end(),
                     [&](const auto& a, const auto& b) { return rank(a.precision) < rank(b.precision); });
    for (auto& call : calls) {
      if (rank(call.precision) > 1) continue;
      const std::int64_t rows = plain.batch * plain.out_h * plain.out_w;
      return {[&q, call, rows, channels = plain.out_c, output, bias = desc.bias, residual, relu = desc.relu] {
                call.run();
                if (call.to_output) call.to_output();
                net::bias_residual_relu(q, rows, channels, output, bias, residual, relu);
              },
              call.impl};
    }
    throw Error("--gemm vendor: " + convs->front().name + " has no fp32 call for a layer");
  };
  if (!gemms->empty()) {
    engine.name += " + " + gemms->front().name;
    engine.prepare_linear = [gemms](Queue& q, std::int64_t out, std::int64_t features, std::int64_t batch,
                                    const float* weights, const float* x, float* y) -> std::function<void()> {
      GemmOperands<float> p;
      p.m = out, p.n = batch, p.k = features, p.alpha = 1.f, p.a = weights, p.lda = features, p.b = x, p.ldb = features,
      p.beta = 0.f, p.c = y, p.ldc = out, p.batch = 1, p.ta = true, p.tb = false;
      return [&q, p, sgemm = gemms->front().sgemm] { sgemm(q, p); };
    };
  }
  return engine;
}

}  // namespace portkern::bench
