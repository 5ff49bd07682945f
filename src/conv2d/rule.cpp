// The selection, in order:
//   1. the generated deployment's pick for the device class (deploy/<class>/conv2d.hpp): its family tree
//      chooses the algorithm, the algorithm's tree the configuration;
//   2. where that pick does not apply to the descriptor (a shape unlike the tuning set's, e.g. Winograd for a
//      5x5 window) or computes with an arithmetic the call's precision does not allow (3xTF32 fragments at the
//      ieee precision, where the class has no deployment of its own for it), the deployment's fallback, written
//      by the generator from tools/tuning/runtime_rules.py so that the analysis scores the same rule (im2col,
//      which takes any undilated convolution);
//   3. where neither applies (dilation > 1, groups > 1): `depthwise` where groups = in_c = out_c; on the CPU
//      `grouped` where groups > 1 (grouped/gemm where a group has gemm_group_outputs output channels or more and
//      is not one of grouped/default's block-diagonal groups of 2, 4 or 8 channels, nor of 16 on a small or
//      strided image; else grouped/default); on CUDA `implicit` where a group has implicit_group_outputs output
//      channels or more (grouped_implicit_config); else `direct`, which takes every descriptor (on 2 Xeon cores
//      grouped ran ResNeXt-50's grouped layers 4.5-8x faster than direct). Grouped descriptors skip 1 and 2:
//      the deployments were tuned on dense convolutions.
#include "conv2d/rule.hpp"

#include "conv2d/deployment.hpp"
#include "conv2d/grouped/block.hpp"
#include "conv2d/registry.hpp"
#include "portkern/runtime/device_class.hpp"

namespace portkern::conv2d_impl {

namespace {

std::string_view algorithm_of(std::string_view config) { return config.substr(0, config.find('/')); }

// A GEMM per channel group pays from 8 output channels a group on the CPU, unless the group's channels take
// grouped/default's block-diagonal mode (grouped/block.hpp: groups of 2, 4 or 8 input and output channels,
// 141-170 GFLOP/s on 2 Xeon cores where a GEMM per group ran 32-40): 10 grouped layers of 7 networks against
// the phases of grouped/default: 1.35-4.4x from 16 to 128 output channels a group, 0.36x at 4, whose GEMMs fill
// a quarter of a vector (data/results/xeon-2026-11-28-grouped/).
// Since the GEMM reads a group's patches in place (from a band of its channels' padded rows), groups of 32 take
// it at every size: 1.09-1.95x grouped/default on ResNeXt-101 32x8d's layer3 and four layers of 7 x 7 to 56 x 56
// (stride 1 and 2); groups of 16 on images of 28 x 28 output pixels or more at stride 1: 1.05-1.16x on three
// layers, against 0.83-1.01x at 7 x 7 and 14 x 14 and 0.92-0.99x on a stride-2 28 x 28 one (2 Zen 5 cores, 1 and
// 2 threads; docs/performance.md, 2026-11-29, seventeenth session).
constexpr std::int64_t gemm_group_outputs = 8, gemm_16_pixels = 28 * 28;
// Whether the CPU runs the grouped convolution d as a GEMM per group (grouped/gemm), else grouped/default.
bool grouped_as_gemm(const Conv2dDesc& d) {
  const int block = block_diagonal_channels(d.in_c, d.out_c, d.groups);
  if (d.out_c / d.groups < gemm_group_outputs) return false;
  const bool stride_1 = d.stride_h == 1 && d.stride_w == 1;
  return block == 0 || block == 32 || (block == 16 && stride_1 && d.out_h * d.out_w >= gemm_16_pixels);
}

// CUDA's grouped convolutions of groups of implicit_group_outputs output channels or more run as an implicit GEMM
// per group (implicit.hpp), in blocks of 128 x 128 where the groups are wide and the pixels many (no fewer than
// a 14 x 14 image's), else of 64 x 64; the fragments' arithmetic is the precision's (3xTF32, TF32 or IEEE SIMT,
// whose one configuration has 128 x 128 blocks). On the H200 against direct, 29 grouped layers of 12 networks
// (data/results/h200-2026-11-29-seventeenth/): 1.1-7x from 16 output channels a group (groups of 128-232: 3.5-9x;
// 0.83-7.6x cuDNN FP32), 0.84x at 12 (ShuffleNet v1's 1x1 layer, which stays direct).
constexpr std::int64_t implicit_group_outputs = 16, wide_group_outputs = 96, wide_group_pixels = 14 * 14;
std::string grouped_implicit_config(const Conv2dDesc& d, Precision precision) {
  const bool wide = d.out_c / d.groups >= wide_group_outputs && d.batch * d.out_h * d.out_w >= wide_group_pixels;
  switch (precision) {
    case Precision::ieee: return "implicit/r8a1c8_wg16x16_staged_k16_s3";
    case Precision::tf32:
      return wide ? "implicit/r8a1c8_wg16x16_staged_k32_s3_tf32" : "implicit/r4a1c4_wg16x16_staged_k32_s3_tf32";
    case Precision::accurate: break;
  }
  return wide ? "implicit/r8a1c8_wg16x16_staged_k32_s3_x3" : "implicit/r4a1c4_wg16x16_staged_k32_s3_x3";
}

template <class D>
Conv2dSelection deployed_pick(const Device& device, const Conv2dDesc& d, Precision precision) {
  const deploy::ConvProblem p = conv_problem(d);
  deploy::Path path;
  const std::string_view family = D::families[D::select_family(p, &path)];
  const std::string_view config = D::configs_of(family)[D::select_in(family, p, &path)];
  constexpr Precision own = detail::precision_of<D>();
  const std::string where = "deploy/" + std::string(D::device_class) + "/conv2d" +
                            (own == Precision::accurate ? "" : "_" + std::string(name(own))) + ".hpp";
  Conv2dSelection pick{std::string(family), std::string(config),
                       where + ": " + (path.str().empty() ? "one choice" : path.str())};
  // The deployments were tuned on dense convolutions: a grouped one goes on to the rules below (the implicit family
  // takes groups, but its deployed picks were timed on dense layers, and on the CPU it gathers a group's windows).
  const std::string why = d.groups > 1 ? "groups = " + std::to_string(d.groups) + ": tuned on dense convolutions"
                                       : conv2d_not_applicable(device, d, family, config, precision);
  if (why.empty()) return pick;
  pick.reason += " -> " + pick.config + ", which does not apply (" + why + ")";
  const std::string_view fallback = D::fallback;
  const std::string why_not_fallback = conv2d_not_applicable(device, d, algorithm_of(fallback), fallback, precision);
  if (why_not_fallback.empty())
    return {std::string(algorithm_of(fallback)), std::string(fallback), pick.reason + ": the fallback " + std::string(fallback)};
  const std::string neither = pick.reason + "; nor does the fallback " + std::string(fallback) + " (" + why_not_fallback + ")";
  if (conv2d_not_applicable(device, d, "depthwise", "depthwise/default", precision).empty())
    return {"depthwise", "depthwise/default", neither + ": depthwise/default"};
  if (device.is_cpu()) {
    const std::string config = grouped_as_gemm(d) ? "grouped/gemm" : "grouped/default";
    if (conv2d_not_applicable(device, d, "grouped", config, precision).empty())
      return {"grouped", config, neither + ": " + config};
  } else if (d.groups > 1 && d.out_c / d.groups >= implicit_group_outputs) {
    const std::string config = grouped_implicit_config(d, precision);
    if (conv2d_not_applicable(device, d, "implicit", config, precision).empty())
      return {"implicit", config, neither + ": " + config};
  }
  return {"direct", "direct/default", neither + ": direct/default"};
}

}  // namespace

Conv2dDeployment deployment(const Device& device, Precision precision) {
  return Conv2dDeployments::with(device_class(device).name, precision, []<class D>() {
    Conv2dDeployment out{std::string(D::device_class), {}, {}, std::string(D::fallback)};
    for (std::string_view family : D::families) {
      out.algorithms.emplace_back(family);
      const auto configs = D::configs_of(family);
      out.configs.emplace_back(configs.begin(), configs.end());
    }
    return out;
  });
}

Conv2dSelection select(const Device& device, const Conv2dDesc& d, Precision precision) {
  return Conv2dDeployments::with(device_class(device).name, precision,
                                 [&]<class D>() { return deployed_pick<D>(device, d, precision); });
}

}  // namespace portkern::conv2d_impl
