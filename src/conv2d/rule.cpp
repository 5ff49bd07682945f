// The selection, in order:
//   dilation > 1   -> direct (the only algorithm that takes it)
//   otherwise      -> the generated deployment's pick for the device class (deploy/<class>/conv2d.hpp): its
//                     family tree chooses the algorithm, the algorithm's tree the configuration
//   a pick that does not apply to the descriptor (a shape unlike the tuning set's, e.g. Winograd for a 5x5
//   window) -> im2col, which takes any undilated convolution (chunked on the CPU, whole on a GPU)
#include "conv2d/rule.hpp"

#include "conv2d/deployment.hpp"
#include "portkern/runtime/device_class.hpp"

namespace portkern::conv2d_impl {

bool known_algorithm(const std::string& a) {
  return a == "direct" || a == "tiled" || a == "im2col" || a == "gemm_1x1" || a == "winograd";
}

bool applies(const std::string& algorithm, const Conv2dDesc& d, std::string* why) {
  auto no = [&](const char* reason) {
    if (why) *why = reason;
    return false;
  };
  const bool dilated = d.dilation_h != 1 || d.dilation_w != 1;
  if (algorithm == "direct") return true;
  if (algorithm == "tiled" || algorithm == "im2col") return dilated ? no("dilation > 1 takes the direct path only") : true;
  if (algorithm == "gemm_1x1") {
    if (d.window_h != 1 || d.window_w != 1) return no("gemm_1x1 needs a 1x1 window");
    if (d.stride_h != 1 || d.stride_w != 1) return no("gemm_1x1 needs stride 1");
    if (d.pad_top || d.pad_bottom || d.pad_left || d.pad_right) return no("gemm_1x1 needs no padding");
    return dilated ? no("dilation > 1 takes the direct path only") : true;
  }
  if (algorithm == "winograd") {
    if (d.window_h != 3 || d.window_w != 3) return no("winograd needs a 3x3 window");
    if (d.stride_h != 1 || d.stride_w != 1) return no("winograd needs stride 1");
    return dilated ? no("dilation > 1 takes the direct path only") : true;
  }
  return no("unknown algorithm (direct, tiled, im2col, gemm_1x1, winograd)");
}

namespace {

deploy::ConvProblem problem(const Conv2dDesc& d) {
  return {d.batch,    d.in_h,     d.in_w,     d.in_c,    d.out_h,   d.out_w,  d.out_c,
          d.window_h, d.window_w, d.stride_h, d.stride_w, d.pad_top, d.pad_left};
}

template <class D>
Conv2dSelection deployed_pick(const deploy::ConvProblem& p) {
  deploy::Path path;
  const std::string_view family = D::families[D::select_family(p, &path)];
  const std::string_view config = D::configs_of(family)[D::select_in(family, p, &path)];
  return {std::string(family), std::string(config),
          "deploy/" + std::string(D::device_class) + "/conv2d.hpp: " + (path.str().empty() ? "one choice" : path.str())};
}

}  // namespace

std::string default_config(const Device& device, const std::string& algorithm) {
  if (algorithm == "tiled") return "tiled/t2x4_c4_k4";
  if (algorithm == "im2col") return device.is_cpu() ? "im2col/chunked" : "im2col/whole";
  if (algorithm == "winograd") return "winograd/f4";
  return algorithm + "/default";
}

Conv2dSelection select(const Device& device, const Conv2dDesc& d) {
  if (d.dilation_h != 1 || d.dilation_w != 1) return {"direct", "direct/default", "dilation > 1"};
  const deploy::ConvProblem p = problem(d);
  Conv2dSelection pick =
      Conv2dDeployments::with(device_class(device).name, [&]<class D>() { return deployed_pick<D>(p); });
  std::string why;
  if (applies(pick.algorithm, d, &why)) return pick;
  const std::string im2col = default_config(device, "im2col");
  return {"im2col", im2col, pick.reason + " -> " + pick.config + ", which does not apply (" + why + "): " + im2col};
}

}  // namespace portkern::conv2d_impl
