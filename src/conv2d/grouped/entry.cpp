// The `grouped` algorithm's registry entry (registry.hpp): grouped descriptors (1 < groups, not depthwise) with any
// window, stride, padding and dilation. Configurations: `default`, one kernel (depthwise.hpp's phases, in their
// grouped mode), and on the CPU `gemm`, a GEMM per channel group (gemm.hpp).
#include "conv2d/call.hpp"
#include "conv2d/depthwise/depthwise.hpp"
#include "conv2d/grouped/block.hpp"
#include "conv2d/grouped/gemm.hpp"
#include "conv2d/registry.hpp"

namespace portkern::conv2d_impl {
namespace {
std::string why_not_grouped(const Conv2dDesc& d) {
  if (d.groups == 1) return "grouped needs groups > 1 (a dense convolution has better algorithms)";
  if (d.groups == d.in_c && d.out_c == d.in_c) return "grouped leaves depthwise descriptors to depthwise";
  return "";
}
}  // namespace

extern const AlgorithmEntry grouped_entry;
const AlgorithmEntry grouped_entry{
    "grouped",
    PORTKERN_CONV2D_NAMES("grouped/default", "grouped/gemm"),
    [](Backend backend) -> const std::vector<std::string>& {
      static const std::vector<std::string> cpu{"grouped/default", "grouped/gemm"}, gpu{"grouped/default"};
      return backend == Backend::cpu ? cpu : gpu;
    },
    [](const Device&) { return std::string("grouped/default"); },
    why_not_grouped,
    // The group-to-data mapping is the back end's. On the CPU the items of a group are its SIMD lanes: as many
    // as divide a channel group's outputs (16 to 64), so that they share its input values (a broadcast instead
    // of a gather per tap and channel: ResNeXt-50's 16- and 32-channel groups ran 26-28 GFLOP/s on 2 Xeon
    // cores gathering); CUDA's threads of one channel group read the same address anyway.
    [](Queue& queue, std::string_view config, const ConvArgs& a) {
      if (config == "grouped/gemm") return run_grouped_gemm(queue, a);
      const std::int64_t group_out = a.out_c / a.groups;
      if (queue.device().is_cuda()) return launch(queue, Conv2dDepthwise<64, false, true>{a});
      // Groups of 2 to 32 input and output channels: their block-diagonal product in a diagonal fragment.
      const int block = block_diagonal_channels(a.in_c, a.out_c, a.groups);
      if (block >= 16) {   // blocks of whole groups: the widest of 64, 48, 32 and 16 channels that splits out_c
        const int t = queue.cpu_threads();
        if (block == 32)
          return a.out_c % 64 == 0 ? launch_cpu(queue, Conv2dDepthwise<64, true, true, 1, 32>{a}.for_threads(t))
                                   : launch_cpu(queue, Conv2dDepthwise<32, true, true, 1, 32>{a}.for_threads(t));
        if (a.out_c % 64 == 0) return launch_cpu(queue, Conv2dDepthwise<64, true, true, 1, 16>{a}.for_threads(t));
        if (a.out_c % 48 == 0) return launch_cpu(queue, Conv2dDepthwise<48, true, true, 1, 16>{a}.for_threads(t));
        if (a.out_c % 32 == 0) return launch_cpu(queue, Conv2dDepthwise<32, true, true, 1, 16>{a}.for_threads(t));
        return launch_cpu(queue, Conv2dDepthwise<16, true, true, 1, 16>{a}.for_threads(t));
      }
      if (block)
        return with_cpu_block_channels(a.out_c, [&](auto items) {
          const int t = queue.cpu_threads();
          if (block == 2) launch_cpu(queue, Conv2dDepthwise<items(), true, true, 1, 2>{a}.for_threads(t));
          else if (block == 4) launch_cpu(queue, Conv2dDepthwise<items(), true, true, 1, 4>{a}.for_threads(t));
          else if constexpr (kernel::cpu::widest_vector_bytes >= 8 * sizeof(float))   // else block is never 8
            launch_cpu(queue, Conv2dDepthwise<items(), true, true, 1, 8>{a}.for_threads(t));
        });
      if (group_out % 64 == 0) launch(queue, Conv2dDepthwise<64, true, true>{a}.for_threads(queue.cpu_threads()));
      else if (group_out % 32 == 0) launch(queue, Conv2dDepthwise<32, true, true>{a}.for_threads(queue.cpu_threads()));
      else if (group_out % 16 == 0) launch(queue, Conv2dDepthwise<16, true, true>{a}.for_threads(queue.cpu_threads()));
      else launch(queue, Conv2dDepthwise<64, true, true>{a}.for_threads(queue.cpu_threads()));
    }};

}  // namespace portkern::conv2d_impl
