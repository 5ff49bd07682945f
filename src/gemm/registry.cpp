// The GEMM registry's list (see registry.hpp) and the checks every entry shares.
#include "gemm/registry.hpp"

#include <array>

#include "common/arithmetic_check.hpp"

namespace portkern::gemm_impl {

// Adding a family: its folder src/gemm/<family>/ (entry.cpp defines <family>_entry) and its line X(<family>)
// below. The order is the order `portkern info` and `tune` show.
#if PORTKERN_HAVE_CUDA
#define PORTKERN_IN_CUDA_BUILDS(...) __VA_ARGS__
#else
#define PORTKERN_IN_CUDA_BUILDS(...)
#endif
#define PORTKERN_GEMM_FAMILIES(X) \
  X(tiled)                        \
  X(cpu_packed)                   \
  PORTKERN_IN_CUDA_BUILDS(X(cuda_native))

#define PORTKERN_DECLARE(family) extern const FamilyEntry family##_entry;
PORTKERN_GEMM_FAMILIES(PORTKERN_DECLARE)
#undef PORTKERN_DECLARE

namespace {
#define PORTKERN_LIST(family) &family##_entry,
constexpr std::array registry = {PORTKERN_GEMM_FAMILIES(PORTKERN_LIST)};
#undef PORTKERN_LIST
}  // namespace

std::span<const FamilyEntry* const> gemm_family_entries() { return registry; }

const FamilyEntry* find_gemm_family(std::string_view name) {
  for (const FamilyEntry* entry : registry)
    if (entry->name == name) return entry;
  return nullptr;
}

std::string listed(std::span<const std::string> names, std::size_t shown) {
  std::string all;
  for (std::size_t i = 0; i < names.size() && i < shown; ++i) all += (i ? ", " : "") + names[i];
  if (names.size() > shown) all += ", ... (" + std::to_string(names.size()) + " in all)";
  return all;
}

std::string gemm_not_applicable(const Device& device, const deploy::Problem& problem, std::string_view family,
                                std::string_view config, Precision precision) {
  const FamilyEntry* entry = find_gemm_family(family);
  if (!entry) {
    std::vector<std::string> names;
    for (const FamilyEntry* e : registry) names.emplace_back(e->name);
    return "unknown family '" + std::string(family) + "' (one of " + listed(names) + ")";
  }
  if (!entry->runs_on(device)) return "family '" + std::string(family) + "' does not run on " + device.name();
  if (!config.starts_with(std::string(family) + "/"))
    return "configuration '" + std::string(config) + "' is not one of family '" + std::string(family) +
           "' (its names start with '" + std::string(family) + "/')";
  if (!entry->in_space(config))
    return "unknown configuration '" + std::string(config) + "' (one of " + listed(entry->space()) + ")";
  if (std::string why = detail::arithmetic_not_allowed(config, entry->arithmetic_of(config, precision), precision);
      !why.empty())
    return why;
  return entry->why_not ? entry->why_not(device, problem, config) : std::string();
}

}  // namespace portkern::gemm_impl
