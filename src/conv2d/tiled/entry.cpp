// The `tiled` algorithm's registry entry (registry.hpp): its space is tiled_conv_space() (81 configurations,
// tiled_config.hpp), of which this build runs tiled_instantiated (instantiated.hpp).
#include <cstdint>

#include "conv2d/call.hpp"
#include "conv2d/registry.hpp"
#include "conv2d/tiled/instantiated.hpp"
#include "portkern/error.hpp"

namespace portkern::conv2d_impl {

namespace {

bool aligned(const void* p, std::size_t bytes) { return reinterpret_cast<std::uintptr_t>(p) % bytes == 0; }

const std::vector<std::string>& tiled_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> all;
    for (const TiledConvConfig& c : tiled_conv_space()) all.push_back(name(c));
    return all;
  }();
  return names;
}

const std::vector<std::string>& tiled_built(Backend) {
  static const std::vector<std::string> names(tiled_instantiated.begin(), tiled_instantiated.end());
  return names;
}

// Vector loads where the channel counts and pointers allow them, element loads otherwise.
void run(Queue& queue, std::string_view config, const ConvArgs& a) {
  const TiledConvConfig p = parse_tiled_conv(config);
  const bool vector_c = a.in_c % p.vec_c == 0 && aligned(a.input, 4 * p.vec_c);
  const bool vector_k = a.out_c % p.vec_k == 0 && aligned(a.filter, 4 * p.vec_k) && aligned(a.output, 4 * p.vec_k);
  bool ran = false;
  if (queue.device().is_cpu()) ran = run_tiled_cpu(queue, config, a, vector_c, vector_k);
#if PORTKERN_HAVE_CUDA
  else ran = run_tiled_cuda(queue, config, a, vector_c, vector_k);
#endif
  if (!ran) fail(conv2d_fn, "configuration '" + std::string(config) + "' is not instantiated for " + queue.device().name());
}

}  // namespace

extern const AlgorithmEntry tiled_entry;
const AlgorithmEntry tiled_entry{"tiled",
                                 tiled_names,
                                 tiled_built,
                                 [](const Device&) { return std::string("tiled/t2x4_c4_k4"); },
                                 dense_undilated,
                                 run};

}  // namespace portkern::conv2d_impl
