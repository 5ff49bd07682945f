// The `windowed` algorithm's registry entry (registry.hpp): its space is every valid combination of the
// parameters (windowed.hpp), of which this build runs windowed_instantiated (instantiated.hpp).
#include <cstdint>

#include "conv2d/call.hpp"
#include "conv2d/registry.hpp"
#include "conv2d/windowed/instantiated.hpp"
#include "portkern/error.hpp"

namespace portkern::conv2d_impl {

namespace {

const std::vector<std::string>& windowed_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> all;
    for (int th : windowed_tile_h)
      for (int tw : windowed_tile_w)
        for (int bk : windowed_block_k)
          for (int px : windowed_pixels)
            for (int vk : windowed_vec_k)
              if (const WindowedConfig c{th, tw, bk, px, vk}; windowed_in_space(c)) all.push_back(name(c));
    return all;
  }();
  return names;
}

const std::vector<std::string>& windowed_built(Backend) {
  static const std::vector<std::string> names(windowed_instantiated.begin(), windowed_instantiated.end());
  return names;
}

// Every configuration must hold one channel of the largest tile's window region and of a window row's filters.
std::string why_not(const Conv2dDesc& d) {
  if (std::string why = dense_undilated(d); !why.empty()) return why;
  const std::int64_t rows = (windowed_largest_tile_h - 1) * d.stride_h + d.window_h;
  const std::int64_t cols = (windowed_largest_tile_w - 1) * d.stride_w + d.window_w;
  if (d.window_w > windowed_largest_window_w || rows * windowed_region_pitch(cols) > windowed_region_floats)
    return "the window region of a tile (" + std::to_string(rows) + " x " + std::to_string(cols) +
           " pixels) or a window row (" + std::to_string(d.window_w) + " wide) exceeds group-local memory";
  return "";
}

void run(Queue& queue, std::string_view config, const ConvArgs& a) {
  const bool vector_k = a.out_c % 4 == 0 && reinterpret_cast<std::uintptr_t>(a.output) % 16 == 0;
  bool ran = false;
  if (queue.device().is_cpu()) ran = run_windowed_cpu(queue, config, a, vector_k);
#if PORTKERN_HAVE_CUDA
  else ran = run_windowed_cuda(queue, config, a, vector_k);
#endif
  if (!ran)
    fail(conv2d_fn, "configuration '" + std::string(config) + "' is not instantiated for " + queue.device().name());
}

}  // namespace

extern const AlgorithmEntry windowed_entry;
const AlgorithmEntry windowed_entry{"windowed",
                                    windowed_names,
                                    windowed_built,
                                    [](const Device&) { return std::string(windowed_instantiated.front()); },
                                    why_not,
                                    run};

}  // namespace portkern::conv2d_impl
