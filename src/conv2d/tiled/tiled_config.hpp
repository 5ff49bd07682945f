// The parameter space of the `tiled` convolution family: a value type usable as a template argument, its
// stable name "tiled/t<rows>x<cols>_c<vc>_k<vk>", the compile-time parser of that name (deployments list
// names; the library instantiates them), and the enumeration of the whole space.
//
// tile rows x cols: output pixels per item, each in {1, 2, 4}; vc: input channels read per vector load,
// in {1, 2, 4}; vk: output channels per item, read and written as vectors, in {1, 2, 4}. 81 configurations.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/config_names.hpp"

namespace portkern::conv2d_impl {

struct TiledConvConfig {
  int tile_h = 1, tile_w = 1, vec_c = 1, vec_k = 1;
  constexpr bool operator==(const TiledConvConfig&) const = default;
};

inline constexpr int tiled_conv_values[] = {1, 2, 4};

std::string name(const TiledConvConfig& config);
std::vector<TiledConvConfig> tiled_conv_space();

namespace detail {
using config_names::parse_literal;
// One of the space's widths (1, 2 or 4).
constexpr bool parse_digit(std::string_view& s, int& value) {
  return config_names::parse_int(s, value) && (value == 1 || value == 2 || value == 4);
}
}  // namespace detail

// Parses a name made by name(); `ok` tells whether it was one of the space's.
constexpr TiledConvConfig parse_tiled_conv(std::string_view s, bool* ok = nullptr) {
  TiledConvConfig p;
  const bool good = detail::parse_literal(s, "tiled/t") && detail::parse_digit(s, p.tile_h) &&
                    detail::parse_literal(s, "x") && detail::parse_digit(s, p.tile_w) &&
                    detail::parse_literal(s, "_c") && detail::parse_digit(s, p.vec_c) &&
                    detail::parse_literal(s, "_k") && detail::parse_digit(s, p.vec_k) && s.empty();
  if (ok) *ok = good;
  return p;
}

}  // namespace portkern::conv2d_impl
