// The parameter space of the portable `tiled` GEMM family: a value type usable as a template argument, its
// stable name, the parser of that name (so a deployment can list configurations as strings and the library
// instantiates them at compile time), and the enumeration of the whole space for the tuner.
//
// Seed 001's space is the item's register tile r x a x c (rows of C, k-step, columns of C), each in
// {1, 2, 4, 8}, times ten work-group shapes: 640 configurations, all reading global memory directly. On top
// of it, every configuration also exists with the group's tiles staged in local memory (k-tile 16, loads of
// vector width 1 or 4), with and without double buffering. The `staged` mode is the model's fast path
// (portkern/kernel/fragment.hpp): the group's block of wg_m*r x wg_n*c is a matrix fragment fed by a
// pipeline of `stages` staged copies of k_tile-deep tiles (cp.async on CUDA, micro-kernel panels on the CPU).
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "common/config_names.hpp"
#include "portkern/precision.hpp"

namespace portkern::gemm_impl {

enum class TiledMemory { global, local, local_db, staged };

struct TiledConfig {
  int r = 4, a = 1, c = 4;        // item tile: r rows x c columns of C, k advanced a at a time
  int wg_m = 16, wg_n = 16;       // items per group along m (fastest, contiguous rows) and along n
  TiledMemory memory = TiledMemory::global;
  int k_tile = 16;                // local modes: depth of the A and B tiles in local memory
  int vec = 1;                    // local modes: width of the cooperative loads (1 or 4)
  int stages = 1;                 // staged: tiles in flight (>= 2); the loads' width follows the alignment
  Arithmetic arithmetic = Arithmetic::ieee;   // staged: tensor-core fragments on CUDA, 3xTF32 or TF32 (float;
                                              // IEEE elsewhere)

  constexpr bool operator==(const TiledConfig&) const = default;
  constexpr int group_size() const { return wg_m * wg_n; }
  constexpr int block_m() const { return wg_m * r; }
  constexpr int block_n() const { return wg_n * c; }
  constexpr bool uses_local() const { return memory != TiledMemory::global; }
};

// The most accumulators (r x c) an item holds on CUDA, in registers: the CPU's part of the staged space (blocks
// of the micro-kernels' cache blocking on 16 x 16 items) has far more, and is not instantiated for CUDA.
inline constexpr int cuda_max_accumulators = 64;

// Seed 001's ten work-group shapes (items along m, items along n).
inline constexpr std::array<std::array<int, 2>, 10> tiled_work_groups = {
    {{1, 64}, {1, 128}, {8, 8}, {8, 16}, {8, 32}, {16, 8}, {16, 16}, {32, 8}, {64, 1}, {128, 1}}};
inline constexpr std::array<int, 4> tiled_tile_sizes = {1, 2, 4, 8};

// "tiled/r4a1c4_wg16x16_global", "tiled/r8a2c4_wg16x16_local_k16_v4", "tiled/..._localdb_k16_v1",
// "tiled/r8a1c8_wg16x16_staged_k16_s3", "tiled/r8a1c8_wg16x16_staged_k32_s3_x3" (3xTF32 fragments),
// "tiled/r8a1c8_wg16x16_staged_k32_s3_tf32" (TF32 fragments).
std::string name(const TiledConfig& config);

namespace detail {
using config_names::parse_int;
using config_names::parse_literal;
}  // namespace detail

// Parses a name made by name(); `ok` tells whether it was one. constexpr: deployments are parsed at compile time.
// `prefix`: the family's, or another family's that names its configurations as this one (conv2d's `implicit`).
constexpr TiledConfig parse_tiled(std::string_view s, bool* ok = nullptr, std::string_view prefix = "tiled/") {
  TiledConfig p;
  bool good = detail::parse_literal(s, prefix) && detail::parse_literal(s, "r") && detail::parse_int(s, p.r) && detail::parse_literal(s, "a") &&
              detail::parse_int(s, p.a) && detail::parse_literal(s, "c") && detail::parse_int(s, p.c) &&
              detail::parse_literal(s, "_wg") && detail::parse_int(s, p.wg_m) && detail::parse_literal(s, "x") &&
              detail::parse_int(s, p.wg_n);
  if (good) {
    if (detail::parse_literal(s, "_global")) {
      p.memory = TiledMemory::global;
    } else {
      if (detail::parse_literal(s, "_staged_k")) {
        p.memory = TiledMemory::staged;
        good = detail::parse_int(s, p.k_tile) && detail::parse_literal(s, "_s") && detail::parse_int(s, p.stages);
        if (good && detail::parse_literal(s, "_x3")) p.arithmetic = Arithmetic::tf32x3;
        else if (good && detail::parse_literal(s, "_tf32")) p.arithmetic = Arithmetic::tf32;
      } else {
        if (detail::parse_literal(s, "_localdb_k"))
          p.memory = TiledMemory::local_db;
        else if (detail::parse_literal(s, "_local_k"))
          p.memory = TiledMemory::local;
        else
          good = false;
        good = good && detail::parse_int(s, p.k_tile) && detail::parse_literal(s, "_v") && detail::parse_int(s, p.vec);
      }
    }
    good = good && s.empty();
  }
  if (ok) *ok = good;
  return p;
}

// The staged mode's sub-space: register tiles of 4 or 8 (in runs of 4: 16-byte fragment loads on CUDA) on
// groups of 64 to 256 items, k-tiles of 8 or 16 and 2 to 4 stages (the GPU's part); the GPU's part again with
// 3xTF32 fragments and again with TF32 fragments, k-tiles of 16 or 32; and blocks of 64 to 512 rows by 96 to
// 768 columns (multiples of the micro-kernels' 6-column tiles), k-tiles of 256 or 512, two stages, on groups
// of 16 x 16 items (the CPU's part: the micro-kernels' cache blocking, small blocks where few would leave
// threads idle). 144 + 144 + 144 + 32.
inline constexpr std::array<std::array<int, 2>, 6> staged_gpu_groups = {{{8, 8}, {8, 16}, {16, 8}, {16, 16}, {8, 32}, {32, 8}}};
inline constexpr std::array<int, 4> staged_cpu_block_rows = {64, 128, 256, 512};
inline constexpr std::array<int, 4> staged_cpu_block_cols = {96, 192, 384, 768};
inline constexpr std::array<int, 2> staged_cpu_k_tiles = {256, 512};   // the GPU's part: k-tiles of 8 to 32
inline constexpr int tiled_staged_space_size = 3 * 4 * 6 * 2 * 3 + 4 * 4 * 2;

// Every configuration of the space, as a compile-time table: seed 001's 640 (global memory) first, then the
// same 640 for each local-memory mode (local, local_db) and load width (1, 4), then the staged configurations
// (the model's fast path, from tiled_staged_first on: the part `portkern tune` measures by default).
inline constexpr int tiled_seed_space_size = 640;
inline constexpr int tiled_staged_first = 5 * tiled_seed_space_size;
inline constexpr int tiled_space_size = tiled_staged_first + tiled_staged_space_size;

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
  for (Arithmetic arithmetic : {Arithmetic::ieee, Arithmetic::tf32x3, Arithmetic::tf32})
    for (auto [wg_m, wg_n] : staged_gpu_groups)
      for (int r : {4, 8})
        for (int c : {4, 8})
          for (int k_tile : arithmetic == Arithmetic::ieee ? std::array<int, 2>{8, 16} : std::array<int, 2>{16, 32})
            for (int stages : {2, 3, 4})
              space[i++] = TiledConfig{r, 1, c, wg_m, wg_n, TiledMemory::staged, k_tile, 1, stages, arithmetic};
  for (int block_m : staged_cpu_block_rows)
    for (int block_n : staged_cpu_block_cols)
      for (int k_tile : staged_cpu_k_tiles)
        space[i++] = TiledConfig{block_m / 16, 1, block_n / 16, 16, 16, TiledMemory::staged, k_tile, 1, 2};
  return space;
}
inline constexpr auto tiled_space_table = make_tiled_space();

// Whether a staged configuration is of the CPU's part (the micro-kernels' cache blocking) or the GPU's.
constexpr bool staged_cpu_part(const TiledConfig& c) { return c.k_tile >= staged_cpu_k_tiles.front(); }

// The table as a list, or a part of it.
enum class TiledPart { all, seed, staged };
std::vector<TiledConfig> tiled_space(TiledPart part = TiledPart::all);

}  // namespace portkern::gemm_impl
