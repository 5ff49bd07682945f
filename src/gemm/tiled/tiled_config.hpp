// The parameter space of the portable `tiled` GEMM family: a value type usable as a template argument, its
// stable name, the parser of that name (so a deployment can list configurations as strings and the library
// instantiates them at compile time), and the enumeration of the whole space for the tuner.
//
// Seed 001's space is the item's register tile r x a x c (rows of C, k-step, columns of C), each in
// {1, 2, 4, 8}, times ten work-group shapes: 640 configurations, all reading global memory directly. On top
// of it, every configuration also exists with the group's tiles staged in local memory (k-tile 16, loads of
// vector width 1 or 4), with and without double buffering.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "common/config_names.hpp"

namespace portkern::gemm_impl {

enum class TiledMemory { global, local, local_db };

struct TiledConfig {
  int r = 4, a = 1, c = 4;        // item tile: r rows x c columns of C, k advanced a at a time
  int wg_m = 16, wg_n = 16;       // items per group along m (fastest, contiguous rows) and along n
  TiledMemory memory = TiledMemory::global;
  int k_tile = 16;                // local modes: depth of the A and B tiles in local memory
  int vec = 1;                    // local modes: width of the cooperative loads (1 or 4)

  constexpr bool operator==(const TiledConfig&) const = default;
  constexpr int group_size() const { return wg_m * wg_n; }
  constexpr int block_m() const { return wg_m * r; }
  constexpr int block_n() const { return wg_n * c; }
  constexpr bool uses_local() const { return memory != TiledMemory::global; }
};

// Seed 001's ten work-group shapes (items along m, items along n).
inline constexpr std::array<std::array<int, 2>, 10> tiled_work_groups = {
    {{1, 64}, {1, 128}, {8, 8}, {8, 16}, {8, 32}, {16, 8}, {16, 16}, {32, 8}, {64, 1}, {128, 1}}};
inline constexpr std::array<int, 4> tiled_tile_sizes = {1, 2, 4, 8};

// "tiled/r4a1c4_wg16x16_global", "tiled/r8a2c4_wg16x16_local_k16_v4", "tiled/..._localdb_k16_v1".
std::string name(const TiledConfig& config);

namespace detail {
using config_names::parse_int;
using config_names::parse_literal;
}  // namespace detail

// Parses a name made by name(); `ok` tells whether it was one. constexpr: deployments are parsed at compile time.
constexpr TiledConfig parse_tiled(std::string_view s, bool* ok = nullptr) {
  TiledConfig p;
  bool good = detail::parse_literal(s, "tiled/r") && detail::parse_int(s, p.r) && detail::parse_literal(s, "a") &&
              detail::parse_int(s, p.a) && detail::parse_literal(s, "c") && detail::parse_int(s, p.c) &&
              detail::parse_literal(s, "_wg") && detail::parse_int(s, p.wg_m) && detail::parse_literal(s, "x") &&
              detail::parse_int(s, p.wg_n);
  if (good) {
    if (detail::parse_literal(s, "_global")) {
      p.memory = TiledMemory::global;
    } else {
      if (detail::parse_literal(s, "_localdb_k"))
        p.memory = TiledMemory::local_db;
      else if (detail::parse_literal(s, "_local_k"))
        p.memory = TiledMemory::local;
      else
        good = false;
      good = good && detail::parse_int(s, p.k_tile) && detail::parse_literal(s, "_v") && detail::parse_int(s, p.vec);
    }
    good = good && s.empty();
  }
  if (ok) *ok = good;
  return p;
}

// Every configuration of the space, as a compile-time table: seed 001's 640 (global memory) first, then the
// same 640 for each local-memory mode (local, local_db) and load width (1, 4).
inline constexpr int tiled_seed_space_size = 640;
inline constexpr int tiled_space_size = 5 * tiled_seed_space_size;

constexpr std::array<TiledConfig, tiled_space_size> make_tiled_space() {
  std::array<TiledConfig, tiled_space_size> space{};
  int i = 0;
  auto add_all = [&](TiledMemory memory, int vec) {
    for (auto [wg_m, wg_n] : tiled_work_groups)
      for (int r : tiled_tile_sizes)
        for (int a : tiled_tile_sizes)
          for (int c : tiled_tile_sizes) space[i++] = TiledConfig{r, a, c, wg_m, wg_n, memory, 16, vec};
  };
  add_all(TiledMemory::global, 1);
  for (TiledMemory memory : {TiledMemory::local, TiledMemory::local_db})
    for (int vec : {1, 4}) add_all(memory, vec);
  return space;
}
inline constexpr auto tiled_space_table = make_tiled_space();

// The table as a list; `seed_only` lists just the first 640.
std::vector<TiledConfig> tiled_space(bool seed_only = false);

}  // namespace portkern::gemm_impl
