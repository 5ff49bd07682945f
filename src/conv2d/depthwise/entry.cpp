// The `depthwise` algorithm's registry entry (registry.hpp): one kernel, depthwise descriptors (groups = in_c =
// out_c) with any window, stride, padding and dilation.
#include <algorithm>
#include <cstdint>

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

// CUDA's channels a group: of 8, 16, 32 and 64, the one that leaves the fewest threads without a channel (the
// largest of equals), so that 16, 72 or 144 channels do not run in groups of 32 or 64 with idle threads.
// Groups are packed 256 threads a block (Conv2dDepthwise::packed_groups), so a group of 8 costs no block slot
// of its own. Calls f(std::integral_constant<int, Items>{}).
template <class F>
void with_cuda_block_channels(std::int64_t out_c, F&& f) {
  int best = 64;
  for (const int items : {32, 16, 8})
    if ((out_c + items - 1) / items * items < (out_c + best - 1) / best * best) best = items;
  switch (best) {
    case 8: return f(std::integral_constant<int, 8>{});
    case 16: return f(std::integral_constant<int, 16>{});
    case 32: return f(std::integral_constant<int, 32>{});
    default: return f(std::integral_constant<int, 64>{});
  }
}

// The device's multiprocessors (at least 1), which the mappings' thread counts are measured against.
std::int64_t multiprocessors(const Device& device) { return std::max(device.properties().compute_units, 1); }

// CUDA: whether a group of 4 pixels of a row (a thread's 4 sums in registers, each filter value loaded once for
// them) beats a group a pixel, where a thread takes one channel: on 3x3 windows where a thread a segment still
// fills a quarter of the device's resident threads (2048 a multiprocessor). Measured in two H200 runs on 27
// depthwise layers (the rule was fitted on all of them): segments ran the 3x3 layers with 75k to 113k segment
// threads 1.1-1.4x faster (MobileNetV2's 112 x 112 x 32: 630 -> 887 GFLOP/s), and those with 38k to 56k
// 0.7-0.9x as fast (MobileNetV3's 56 x 56 x 72: 491 -> 336); 5x5 and 7x7 windows 0.3-0.98x as fast, whatever
// their size: a thread's longer sums need more threads in flight than such layers have (ConvNeXt's 14 x 14 x
// 384: 775 -> 517).
constexpr int cuda_segment = 4;   // depthwise/segment4's pixels a thread

bool segments_pay(const Device& device, const ConvArgs& a) {
  const std::int64_t threads = a.batch * a.out_h * ((a.out_w + cuda_segment - 1) / cuda_segment) * a.out_c;
  return a.window_w <= 3 && threads >= 512 * multiprocessors(device);
}

// CUDA: whether a thread may take `lanes` consecutive channels as one vector (kernel::vec; 4 floats: a 16-byte
// access): channels a multiple of lanes, the input and filter aligned to the vector (the library's buffers are;
// a caller's offset pointer need not be). Else fewer channels a thread.
bool lanes_fit(const ConvArgs& a, int lanes) {
  const auto aligned = [&](const float* p) {
    return reinterpret_cast<std::uintptr_t>(p) % (std::uintptr_t(lanes) * sizeof(float)) == 0;
  };
  return a.in_c % lanes == 0 && aligned(a.input) && aligned(a.filter);
}

// CUDA: whether 4 channels a thread beat fewer, where they fit. A thread's 4 channels share its pixel's set-up
// and address arithmetic and load as one 16-byte access (ConvNeXt-T's 7 x 7 layer at 56 x 56 x 96: 12.3 M ->
// 4.1 M warp instructions, 24.0 -> 15.9 us under ncu), but the layer has a quarter of the threads. On an H200
// (one run, 27 depthwise layers, fitted on all of them) they ran the 3x3 stride-1 layers 1.0-1.7x as fast as a
// channel a thread (MobileNetV2's 56 x 56 x 144: 621 -> 1011 GFLOP/s), and the others too where 4 channels a
// thread still give 256 threads a multiprocessor (1.04-1.69x: ConvNeXt's 56 x 56 x 96, 1296 -> 2186); below
// that, 5x5 and 7x7 windows and strides ran 0.76-1.0x as fast (MobileNetV3's 5x5 stride-2 layers), a thread's
// long sums with too few threads in flight.
bool lanes_pay(const Device& device, const ConvArgs& a) {
  const std::int64_t threads = a.batch * a.out_h * a.out_w * (a.out_c / 4);
  const bool small_window = a.window_h <= 3 && a.window_w <= 3 && a.stride_h == 1 && a.stride_w == 1;
  return small_window || threads >= 256 * multiprocessors(device);
}

// CUDA: a pixel a group, or a segment of 4 pixels of a row; a channel a thread, or Lanes.
template <int Segment, int Lanes>
void launch_cuda(Queue& queue, const ConvArgs& a) {
  with_cuda_block_channels(a.out_c, [&](auto items) {
    launch(queue, Conv2dDepthwise<items(), false, false, Segment, 0, Lanes>{a});
  });
}

// depthwise/default: 4 channels a thread where they fit and pay, else 2 where they fit, else 4 pixels a thread
// where segments pay, else a pixel a thread. On an H200, on the 27 depthwise layers that lanes_pay was fitted on,
// 2 channels a thread were the fastest mapping (or within 1% of it) on 9 of the 11 layers where 4 do not pay
// (EfficientNet-B0's 5x5 stride-2 layer: 670 GFLOP/s a channel a thread, 721 four, 744 two); 0.88x a channel a
// thread on MobileNetV3's 5x5 stride-2 layer at 14 x 14 x 672, 0.89x 4 channels on ConvNeXt's 7 x 7 layer at
// 14 x 14 x 384. Over the 27 the pick gained 1.024x / 1.014x (7 MobileNetV2 / EfficientNet-B0 layers / 20 others)
// on a channel a thread where 4 do not pay, from one run's per-configuration columns.
// pixel_c4 and pixel_c2 where their lanes do not fit: 2 channels a thread where those fit, else one.
void run_cuda(Queue& queue, std::string_view config, const ConvArgs& a) {
  const bool by_rule = config == "depthwise/default";
  if (lanes_fit(a, 4) && (by_rule ? lanes_pay(queue.device(), a) : config == "depthwise/pixel_c4"))
    return launch_cuda<1, 4>(queue, a);
  if (lanes_fit(a, 2) && (by_rule || config == "depthwise/pixel_c2" || config == "depthwise/pixel_c4"))
    return launch_cuda<1, 2>(queue, a);
  const bool segments = by_rule ? segments_pay(queue.device(), a) : config == "depthwise/segment4";
  return segments ? launch_cuda<cuda_segment, 1>(queue, a) : launch_cuda<1, 1>(queue, a);
}
}  // namespace

extern const AlgorithmEntry depthwise_entry;
const AlgorithmEntry depthwise_entry{
    "depthwise",
    PORTKERN_CONV2D_NAMES("depthwise/default", "depthwise/pixel", "depthwise/segment4", "depthwise/pixel_c4",
                          "depthwise/pixel_c2"),
    [](Backend backend) -> const std::vector<std::string>& {
      static const std::vector<std::string> cpu{"depthwise/default"},
          gpu{"depthwise/default", "depthwise/pixel", "depthwise/segment4", "depthwise/pixel_c4", "depthwise/pixel_c2"};
      return backend == Backend::cpu ? cpu : gpu;
    },
    [](const Device&) { return std::string("depthwise/default"); },
    why_not_depthwise,
    // The group-to-data mapping is the back end's. CUDA: a group a pixel, a thread a channel (pixel) or 4
    // (pixel_c4: one 16-byte load for 4 products, where lanes_fit; else 2 or one; pixel_c2: 2 channels, one 8-byte
    // load), or a group 4 pixels of a
    // row, a thread a channel (segment4); default picks one per layer (run_cuda). CPU: a group's channels are a
    // block of 16 to 64 (with_cpu_block_channels), its rows a group of rows (for_threads).
    [](Queue& queue, std::string_view config, const ConvArgs& a) {
      if (queue.device().is_cuda()) return run_cuda(queue, config, a);
      with_cpu_block_channels(a.out_c, [&](auto items) {
        launch_cpu(queue, Conv2dDepthwise<items(), true>{a}.for_threads(queue.cpu_threads()));
      });
    }};

}  // namespace portkern::conv2d_impl
