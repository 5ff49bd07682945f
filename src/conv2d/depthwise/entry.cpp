// The `depthwise` algorithm's registry entry (registry.hpp): one kernel, depthwise descriptors (groups = in_c =
// out_c) with any window, stride, padding and dilation.
#include <algorithm>

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

// CUDA: whether a group of 4 pixels of a row (a thread's 4 sums in registers, each filter value loaded once for
// them) beats a group a pixel. Measured on an H200 on 27 depthwise layers, 4 pixels a group ran 3x3 windows
// 1.1-2.3x faster where the layer has at least 8 such groups a multiprocessor (112 x 112 x 32: 350 -> 821
// GFLOP/s), and 5x5 and 7x7 windows, or fewer groups, 0.3-0.9x as fast: a thread's longer sums need more
// threads in flight than such layers have (ConvNeXt's 14 x 14 x 384 7 x 7: 830 -> 275).
bool segments_pay(const Device& device, const ConvArgs& a) {
  const std::int64_t items = a.out_c % 64 == 0 ? 64 : 32;
  const std::int64_t groups = a.batch * a.out_h * ((a.out_w + 3) / 4) * ((a.out_c + items - 1) / items);
  return a.window_w <= 3 && groups >= 8 * std::int64_t(std::max(device.properties().compute_units, 1));
}
}  // namespace

extern const AlgorithmEntry depthwise_entry;
const AlgorithmEntry depthwise_entry{
    "depthwise",
    PORTKERN_CONV2D_NAMES("depthwise/default"),
    PORTKERN_CONV2D_BUILT("depthwise/default"),
    [](const Device&) { return std::string("depthwise/default"); },
    why_not_depthwise,
    // The group-to-data mapping is the back end's. On the CPU a group's channels are a block of 16 to 64
    // (with_cpu_block_channels), its rows a group of rows (for_threads).
    [](Queue& queue, std::string_view, const ConvArgs& a) {
      if (queue.device().is_cuda()) {   // a thread a channel: 4 pixels of a row a group, or one (segments_pay)
        if (!segments_pay(queue.device(), a)) return launch(queue, Conv2dDepthwise<64, false>{a});
        if (a.out_c % 64 == 0) return launch(queue, Conv2dDepthwise<64, false, false, 4>{a});
        return launch(queue, Conv2dDepthwise<32, false, false, 4>{a});
      }
      with_cpu_block_channels(a.out_c, [&](auto items) {
        launch_cpu(queue, Conv2dDepthwise<items(), true>{a}.for_threads(queue.cpu_threads()));
      });
    }};

}  // namespace portkern::conv2d_impl
