// The convolution's registry list (see registry.hpp) and the checks every entry shares.
#include "conv2d/registry.hpp"

#include <algorithm>
#include <array>

#include "common/arithmetic_check.hpp"

namespace portkern::conv2d_impl {

// Adding an algorithm: its folder src/conv2d/<algorithm>/ (entry.cpp defines <algorithm>_entry) and its line
// X(<algorithm>) below. The order is the order `conv2d_space`, `portkern info` and the tests show.
#define PORTKERN_CONV2D_ALGORITHMS(X) \
  X(direct)                           \
  X(tiled)                            \
  X(windowed)                         \
  X(im2col)                           \
  X(gemm_1x1)                         \
  X(winograd)                         \
  X(implicit)                         \
  X(implicit_wgmma)                   \
  X(depthwise)                        \
  X(grouped)

#define PORTKERN_DECLARE(algorithm) extern const AlgorithmEntry algorithm##_entry;
PORTKERN_CONV2D_ALGORITHMS(PORTKERN_DECLARE)
#undef PORTKERN_DECLARE

namespace {
#define PORTKERN_LIST(algorithm) &algorithm##_entry,
constexpr std::array registry = {PORTKERN_CONV2D_ALGORITHMS(PORTKERN_LIST)};
#undef PORTKERN_LIST

std::string listed(const std::vector<std::string>& names) {
  std::string all;
  for (const std::string& name : names) all += (all.empty() ? "" : ", ") + name;
  return all;
}
}  // namespace

std::span<const AlgorithmEntry* const> conv2d_algorithm_entries() { return registry; }

const AlgorithmEntry* find_conv2d_algorithm(std::string_view name) {
  for (const AlgorithmEntry* entry : registry)
    if (entry->name == name) return entry;
  return nullptr;
}

std::string conv2d_not_applicable(const Device& device, const Conv2dDesc& d, std::string_view algorithm,
                                  std::string_view config, Precision precision) {
  const AlgorithmEntry* entry = find_conv2d_algorithm(algorithm);
  if (!entry) {
    std::vector<std::string> names;
    for (const AlgorithmEntry* e : registry) names.emplace_back(e->name);
    return "unknown algorithm '" + std::string(algorithm) + "' (one of " + listed(names) + ")";
  }
  const std::string prefix = std::string(algorithm) + "/";
  if (!config.starts_with(prefix))
    return "configuration '" + std::string(config) + "' is not one of algorithm '" + std::string(algorithm) +
           "' (its names start with '" + prefix + "')";
  if (entry->arithmetic) {   // before the build's list: the precision rules a name out on every back end
    if (std::string why = detail::arithmetic_not_allowed(config, entry->arithmetic(config), precision); !why.empty())
      return why;
  }
  const auto& built = entry->instantiated(device.backend());
  if (std::find(built.begin(), built.end(), config) == built.end()) {
    const auto& space = entry->space();
    const bool known = std::find(space.begin(), space.end(), config) != space.end();
    return (known ? "configuration '" + std::string(config) + "' is not instantiated in this build for " + device.name()
                  : "unknown configuration '" + std::string(config) + "'") +
           " (this build runs " + listed(built) + ")";
  }
  return entry->why_not(d);
}

}  // namespace portkern::conv2d_impl
