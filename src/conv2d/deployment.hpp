// The convolution's deployments, one per device class: the generated selector (deploy/<device-class>/conv2d.hpp,
// written by `portkern tune conv2d --deploy`, or hand-written until a class is tuned) that picks an algorithm
// and configuration per call, chosen at run time by the device's class (portkern/runtime/device_class.hpp), and
// the `tiled` configurations the library instantiates.
#pragma once

#include <array>
#include <string_view>

#include "common/deployment_list.hpp"
#include "deploy/cpu-avx2/conv2d.hpp"
#include "deploy/cpu-avx512/conv2d.hpp"
#include "deploy/cpu-generic/conv2d.hpp"
#include "deploy/cuda-generic/conv2d.hpp"
#include "deploy/cuda-sm90/conv2d.hpp"

namespace portkern::conv2d_impl {

// Every device class's conv2d deployment (tests check that each class of the device-class table has one).
using Conv2dDeployments = detail::DeploymentList<deploy::cpu_avx512::conv2d, deploy::cpu_avx2::conv2d,
                                                 deploy::cpu_generic::conv2d, deploy::cuda_sm90::conv2d,
                                                 deploy::cuda_generic::conv2d>;

// The tiled configurations instantiated (hand-picked, not tuned: every code path of the family, so that the
// tests cover it). Small tiles with scalar channels for tiny channel counts, 2x2 to 4x4 tiles with vectors
// of 4 for the rest; one of each vector width. The tuner measures them all; the selector picks among them.
inline constexpr std::array<std::string_view, 8> tiled_deployed = {
    "tiled/t1x1_c1_k1", "tiled/t1x4_c1_k4", "tiled/t2x2_c2_k2", "tiled/t2x4_c4_k4",
    "tiled/t4x4_c4_k4", "tiled/t4x4_c1_k1", "tiled/t4x2_c4_k1", "tiled/t1x2_c2_k4"};

}  // namespace portkern::conv2d_impl
