// The `implicit` algorithm's registry entry (registry.hpp): its space is named as the staged GEMM's
// ("implicit/..."; 432 GPU configurations and 32 CPU ones), of which each back end runs its own list
// (instantiated.hpp).
#include <cstdint>
#include <limits>

#include "conv2d/call.hpp"
#include "conv2d/implicit/instantiated.hpp"
#include "conv2d/registry.hpp"
#include "portkern/error.hpp"

namespace portkern::conv2d_impl {

namespace {

// The staged GEMM's GPU part (its CPU part's blocks have at least 96 columns), then the CPU's blocks of 64 to
// 512 output channels by 48 to 384 pixels (48: more groups for the threads on layers of few pixels), k-tiles of
// 256 or 512.
const std::vector<std::string>& implicit_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> all;
    auto add = [&](const gemm_impl::TiledConfig& c) {
      all.push_back(std::string(implicit_prefix) + gemm_impl::name(c).substr(std::string_view("tiled/").size()));
    };
    for (const gemm_impl::TiledConfig& c : gemm_impl::tiled_space(gemm_impl::TiledPart::staged))
      if (!gemm_impl::staged_cpu_part(c)) add(c);
    for (int block_m : {64, 128, 256, 512})
      for (int block_n : {48, 96, 192, 384})
        for (int k_tile : {256, 512})
          add({block_m / 16, 1, block_n / 16, 16, 16, gemm_impl::TiledMemory::staged, k_tile, 1, 2});
    return all;
  }();
  return names;
}

const std::vector<std::string>& implicit_built(Backend backend) {
  static const std::vector<std::string> cpu(implicit_cpu_instantiated.begin(), implicit_cpu_instantiated.end());
  static const std::vector<std::string> cuda(implicit_cuda_instantiated.begin(), implicit_cuda_instantiated.end());
  return backend == Backend::cpu ? cpu : cuda;
}

// The CUDA copies address windows with 32-bit coordinates: pixels, depth and the image's sides must fit.
std::string why_not(const Conv2dDesc& d) {
  if (std::string why = undilated(d); !why.empty()) return why;
  constexpr std::int64_t limit = std::numeric_limits<std::int32_t>::max();
  if (d.batch * d.out_h * d.out_w > limit || d.window_h * d.window_w * d.in_c > limit || d.batch * d.in_h > limit)
    return "more than 2^31 - 1 output pixels, window elements or image rows";
  return "";
}

void run(Queue& queue, std::string_view config, const ConvArgs& a) {
  ImplicitRun ran = ImplicitRun::not_instantiated;
  if (queue.device().is_cpu()) ran = run_implicit_cpu(queue, config, a);
#if PORTKERN_HAVE_CUDA
  else ran = run_implicit_cuda(queue, config, a);
#endif
  if (ran == ImplicitRun::not_instantiated)
    fail(conv2d_fn, "configuration '" + std::string(config) + "' is not instantiated for " + queue.device().name());
  if (ran == ImplicitRun::epilogue_left) bias_relu(queue, a, 0, a.batch * a.out_h * a.out_w);
}

}  // namespace

extern const AlgorithmEntry implicit_entry;
const AlgorithmEntry implicit_entry{
    "implicit", implicit_names, implicit_built,
    [](const Device& device) {
      return std::string(device.is_cpu() ? implicit_cpu_instantiated.front() : implicit_cuda_instantiated.front());
    },
    why_not, run,
    [](std::string_view config) { return parse_implicit(config).arithmetic; }};

}  // namespace portkern::conv2d_impl
