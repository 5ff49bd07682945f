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
  std::vector<TiledConfig> space;
  auto add_all = [&](TiledMemory memory, int vec) {
    for (auto [wg_m, wg_n] : tiled_work_groups)
      for (int r : tiled_tile_sizes)
        for (int a : tiled_tile_sizes)
          for (int c : tiled_tile_sizes) space.push_back({r, a, c, wg_m, wg_n, memory, 16, vec});
  };
  add_all(TiledMemory::global, 1);
  if (seed_only) return space;
  for (TiledMemory memory : {TiledMemory::local, TiledMemory::local_db})
    for (int vec : {1, 4}) add_all(memory, vec);
  return space;
}

bool is_valid(const TiledConfig& p) {
  auto in = [](int v, auto list) { return std::find(list.begin(), list.end(), v) != list.end(); };
  const bool wg = std::find(tiled_work_groups.begin(), tiled_work_groups.end(), std::array<int, 2>{p.wg_m, p.wg_n}) !=
                  tiled_work_groups.end();
  return wg && in(p.r, tiled_tile_sizes) && in(p.a, tiled_tile_sizes) && in(p.c, tiled_tile_sizes) &&
         (!p.uses_local() || (p.k_tile == 16 && (p.vec == 1 || p.vec == 4)));
}

}  // namespace portkern::gemm_impl
