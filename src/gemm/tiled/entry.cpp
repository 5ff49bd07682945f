// The portable `tiled` family's registry entry (registry.hpp): its space is tiled_space() (tiled_config.hpp),
// so configurations added there are listed, forced and tuned without another change. Runs on every back end;
// a configuration outside this build's instantiated set fails when it is run (tiled_runner.hpp says which).
#include <algorithm>

#include "gemm/registry.hpp"
#include "gemm/tiled/tiled_config.hpp"
#include "gemm/tiled/tiled_runner.hpp"

namespace portkern::gemm_impl {

namespace {

std::vector<std::string> names_of(const std::vector<TiledConfig>& configs) {
  std::vector<std::string> names;
  for (const TiledConfig& c : configs) names.push_back(name(c));
  return names;
}

const std::vector<std::string>& tiled_names() {
  static const std::vector<std::string> names = names_of(tiled_space());
  return names;
}

// What `portkern tune` measures on a device by default: the staged mode (the model's fast path; seed 001's
// modes are the ladder's) for the device's back end. On a GPU, the groups of 64 to 256 items with k-tiles of
// 8 to 32; on a CPU, the blocks of the micro-kernels' cache blocking, k-tiles of 256 or 512. Either part runs on
// the other back end where it fits (forced, or with `--configs full`), but on a CPU the GPU's part never won:
// over the first 7 shapes of gemm_tune25.csv its best reached 0.84-0.93 of the CPU part's best, at about ten
// times the measuring time (2026-11-25); on CUDA the CPU's blocks do not fit a thread's registers.
std::vector<std::string> tiled_tuning_part(const Device& device) {
  std::vector<std::string> names;
  for (const TiledConfig& c : tiled_space(TiledPart::staged))
    if (staged_cpu_part(c) == device.is_cpu()) names.push_back(name(c));
  return names;
}

bool in_tiled_space(std::string_view config) {
  bool ok = false;
  const TiledConfig parsed = parse_tiled(config, &ok);
  if (!ok) return false;
  static const std::vector<TiledConfig> space = tiled_space();
  return std::find(space.begin(), space.end(), parsed) != space.end();
}

Arithmetic tiled_arithmetic(std::string_view config, Precision) { return parse_tiled(config).arithmetic; }

template <class T>
void run_tiled(Queue& queue, std::string_view config, bool ta, bool tb, const GemmArgs<T>& p) {
  if (queue.device().is_cpu()) return run_tiled_cpu(queue, config, ta, tb, p);
#if PORTKERN_HAVE_CUDA
  run_tiled_cuda(queue, config, ta, tb, p);
#endif
}

}  // namespace

extern const FamilyEntry tiled_entry;
const FamilyEntry tiled_entry{"tiled",         [](const Device&) { return true; },
                              tiled_names,     tiled_tuning_part,
                              in_tiled_space,  nullptr,
                              tiled_arithmetic, run_tiled<float>,
                              run_tiled<double>,  false};

}  // namespace portkern::gemm_impl
