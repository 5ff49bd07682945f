// The `depthwise` algorithm's registry entry (registry.hpp): one kernel, depthwise descriptors (groups = in_c =
// out_c) with any window, stride, padding and dilation.
#include "conv2d/call.hpp"
#include "conv2d/depthwise/depthwise.hpp"
#include "conv2d/registry.hpp"

namespace portkern::conv2d_impl {
namespace {
std::string why_not_depthwise(const Conv2dDesc& d) {
  if (d.groups != d.in_c || d.out_c != d.in_c)
    return "depthwise needs groups = in_c = out_c (got groups " + std::to_string(d.groups) + ", in_c " +
           std::to_string(d.in_c) + ", out_c " + std::to_string(d.out_c) + ")";
  return "";
}
}  // namespace

extern const AlgorithmEntry depthwise_entry;
const AlgorithmEntry depthwise_entry{
    "depthwise",
    PORTKERN_CONV2D_NAMES("depthwise/default"),
    PORTKERN_CONV2D_BUILT("depthwise/default"),
    [](const Device&) { return std::string("depthwise/default"); },
    why_not_depthwise,
    [](Queue& queue, std::string_view, const ConvArgs& a) {   // the group-to-data mapping is the back end's
      if (queue.device().is_cuda()) launch(queue, Conv2dDepthwise<64, false>{a});
      else launch(queue, Conv2dDepthwise<64, true>{a});
    }};

}  // namespace portkern::conv2d_impl
