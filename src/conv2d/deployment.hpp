// Hand-written deployment of the convolution (until `portkern tune conv2d` generates one per device class):
// the `tiled` configurations this build instantiates on each back end. The rule that picks an algorithm per
// call is in rule.cpp.
#pragma once

#include <array>
#include <string_view>

namespace portkern::conv2d_impl {

// Small tiles with scalar channels for tiny channel counts, 2x2 to 4x4 tiles with vectors of 4 for the
// rest; one of each vector width so that the tests cover every code path of the family.
inline constexpr std::array<std::string_view, 8> tiled_deployed = {
    "tiled/t1x1_c1_k1", "tiled/t1x4_c1_k4", "tiled/t2x2_c2_k2", "tiled/t2x4_c4_k4",
    "tiled/t4x4_c4_k4", "tiled/t4x4_c1_k1", "tiled/t4x2_c4_k1", "tiled/t1x2_c2_k4"};

}  // namespace portkern::conv2d_impl
