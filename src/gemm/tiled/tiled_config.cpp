#include "gemm/tiled/tiled_config.hpp"

#include <algorithm>

namespace portkern::gemm_impl {

namespace {
std::string_view arithmetic_suffix(Arithmetic a) {
  switch (a) {
    case Arithmetic::ieee: break;
    case Arithmetic::tf32x3: return "_x3";
    case Arithmetic::tf32: return "_tf32";
  }
  return "";
}
}  // namespace

std::string name(const TiledConfig& p) {
  std::string s = "tiled/r" + std::to_string(p.r) + "a" + std::to_string(p.a) + "c" + std::to_string(p.c) + "_wg" +
                  std::to_string(p.wg_m) + "x" + std::to_string(p.wg_n);
  switch (p.memory) {
    case TiledMemory::global: return s + "_global";
    case TiledMemory::local: s += "_local_k"; break;
    case TiledMemory::local_db: s += "_localdb_k"; break;
    case TiledMemory::staged:
      return s + "_staged_k" + std::to_string(p.k_tile) + "_s" + std::to_string(p.stages) +
             std::string(arithmetic_suffix(p.arithmetic));
  }
  return s + std::to_string(p.k_tile) + "_v" + std::to_string(p.vec);
}

std::vector<TiledConfig> tiled_space(TiledPart part) {
  const auto begin = tiled_space_table.begin();
  switch (part) {
    case TiledPart::seed: return {begin, begin + tiled_seed_space_size};
    case TiledPart::staged: return {begin + tiled_staged_first, tiled_space_table.end()};
    case TiledPart::all: break;
  }
  return {begin, tiled_space_table.end()};
}

}  // namespace portkern::gemm_impl
