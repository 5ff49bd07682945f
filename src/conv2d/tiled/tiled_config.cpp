#include "conv2d/tiled/tiled_config.hpp"

namespace portkern::conv2d_impl {

std::string name(const TiledConvConfig& p) {
  return "tiled/t" + std::to_string(p.tile_h) + "x" + std::to_string(p.tile_w) + "_c" + std::to_string(p.vec_c) +
         "_k" + std::to_string(p.vec_k);
}

std::vector<TiledConvConfig> tiled_conv_space() {
  std::vector<TiledConvConfig> space;
  for (int th : tiled_conv_values)
    for (int tw : tiled_conv_values)
      for (int vc : tiled_conv_values)
        for (int vk : tiled_conv_values) space.push_back({th, tw, vc, vk});
  return space;
}

}  // namespace portkern::conv2d_impl
