// The tuning build (-DPORTKERN_TUNING=ON): every configuration of a part of the `tiled` space instantiated
// (float, every transpose: what `portkern tune` measures), split over generated shard files so that the build runs
// in parallel. The shipped library instantiates only its deployment's configurations.
#pragma once

#include <string_view>
#include <utility>

#include "gemm/tiled/tiled_runner.hpp"
#include "gemm/tiled/tiled_config.hpp"
#include "portkern/runtime/queue.hpp"

namespace portkern::gemm_impl::tuning {

// The part of tiled_space_table instantiated (src/gemm/CMakeLists.txt's PORTKERN_TUNING_SPACE): `size`
// configurations from `first` on, dealt round-robin over the shards.
inline constexpr int tuning_first = PORTKERN_TUNING_SPACE_FIRST, tuning_size = PORTKERN_TUNING_SPACE_SIZE;
static_assert(tuning_first >= 0 && tuning_first + tuning_size <= tiled_space_size, "a part of the tiled space");

template <int Shard>
bool run_tiled_cpu_shard(const TiledConfig& config, const Queue& queue, bool trans_a, bool trans_b,
                         const GemmArgs<float>& args);
template <int Shard>
bool run_tiled_cuda_shard(const TiledConfig& config, const Queue& queue, bool trans_a, bool trans_b,
                          const GemmArgs<float>& args);

// True when the configuration was found (and run) in one of the shards.
bool run_tiled_cpu(std::string_view config, const Queue& queue, bool trans_a, bool trans_b, const GemmArgs<float>& args);
bool run_tiled_cuda(std::string_view config, const Queue& queue, bool trans_a, bool trans_b, const GemmArgs<float>& args);

// Tries configuration I of the part if it belongs to this shard and is the one wanted.
template <std::size_t I, int Shard, int Shards, class Launch>
bool try_config(const TiledConfig& wanted, Launch& launch) {
  if constexpr (int(I % Shards) != Shard) {
    return false;
  } else {
    if (!(tiled_space_table[tuning_first + I] == wanted)) return false;
    launch.template operator()<tiled_space_table[tuning_first + I]>();
    return true;
  }
}

template <int Shard, int Shards, class Launch>
bool run_in_shard(const TiledConfig& wanted, Launch&& launch) {
  return [&]<std::size_t... I>(std::index_sequence<I...>) {
    return (try_config<I, Shard, Shards>(wanted, launch) || ...);
  }(std::make_index_sequence<tuning_size>{});
}

}  // namespace portkern::gemm_impl::tuning
