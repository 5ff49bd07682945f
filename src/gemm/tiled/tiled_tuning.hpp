// The tuning build (-DPORTKERN_TUNING=ON): every configuration of the `tiled` space instantiated (float,
// no transposes: what `portkern tune` measures), split over generated shard files so that the build runs
// in parallel. The shipped library instantiates only its deployment's configurations.
#pragma once

#include <string_view>
#include <utility>

#include "gemm/tiled/tiled_runner.hpp"
#include "gemm/tiled/tiled_config.hpp"
#include "portkern/runtime/queue.hpp"

namespace portkern::gemm_impl::tuning {

// Configurations each shard may hold: the first `PORTKERN_TUNING_SPACE_SIZE` of tiled_space_table.
template <int Shard>
bool run_tiled_cpu_shard(const TiledConfig& config, const Queue& queue, const GemmArgs<float>& args);
template <int Shard>
bool run_tiled_cuda_shard(const TiledConfig& config, const Queue& queue, const GemmArgs<float>& args);

// True when the configuration was found (and run) in one of the shards.
bool run_tiled_cpu(std::string_view config, const Queue& queue, const GemmArgs<float>& args);
bool run_tiled_cuda(std::string_view config, const Queue& queue, const GemmArgs<float>& args);

// Tries configuration I of the table if it belongs to this shard and is the one wanted.
template <std::size_t I, int Shard, int Shards, class Launch>
bool try_config(const TiledConfig& wanted, Launch& launch) {
  if constexpr (int(I % Shards) != Shard) {
    return false;
  } else {
    if (!(tiled_space_table[I] == wanted)) return false;
    launch.template operator()<tiled_space_table[I]>();
    return true;
  }
}

template <int Shard, int Shards, int Size, class Launch>
bool run_in_shard(const TiledConfig& wanted, Launch&& launch) {
  return [&]<std::size_t... I>(std::index_sequence<I...>) {
    return (try_config<I, Shard, Shards>(wanted, launch) || ...);
  }(std::make_index_sequence<Size>{});
}

}  // namespace portkern::gemm_impl::tuning
