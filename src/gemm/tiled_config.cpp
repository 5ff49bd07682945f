#include "gemm/tiled_config.hpp"

#include <algorithm>

namespace portkern::gemm_impl {

std::string name(const TiledConfig& p) {
  std::string s = "tiled/r" + std::to_string(p.r) + "a" + std::to_string(p.a) + "c" + std::to_string(p.c) + "_wg" +
                  std::to_string(p.wg_m) + "x" + std::to_string(p.wg_n);
  switch (p.memory) {
    case TiledMemory::global: return s + "_global";
    case TiledMemory::local: s += "_local_k"; break;
    case TiledMemory::local_db: s += "_localdb_k"; break;
  }
  return s + std::to_string(p.k_tile) + "_v" + std::to_string(p.vec);
}

std::vector<TiledConfig> tiled_space(bool seed_only) {
  const int count = seed_only ? tiled_seed_space_size : tiled_space_size;
  return {tiled_space_table.begin(), tiled_space_table.begin() + count};
}

bool is_valid(const TiledConfig& p) {
  auto in = [](int v, auto list) { return std::find(list.begin(), list.end(), v) != list.end(); };
  const bool wg = std::find(tiled_work_groups.begin(), tiled_work_groups.end(), std::array<int, 2>{p.wg_m, p.wg_n}) !=
                  tiled_work_groups.end();
  return wg && in(p.r, tiled_tile_sizes) && in(p.a, tiled_tile_sizes) && in(p.c, tiled_tile_sizes) &&
         (!p.uses_local() || (p.k_tile == 16 && (p.vec == 1 || p.vec == 4)));
}

}  // namespace portkern::gemm_impl
