// The convolution's deployments, one per device class: the generated selector (deploy/<device-class>/conv2d.hpp,
// written by `portkern tune conv2d --deploy`, or hand-written until a class is tuned) that picks an algorithm
// and configuration per call, chosen at run time by the device's class (portkern/runtime/device_class.hpp).
#pragma once

#include <array>
#include <string_view>

#include "common/deployment_list.hpp"
#include "deploy/cpu-avx2/conv2d.hpp"
#include "deploy/cpu-avx512/conv2d.hpp"
#include "deploy/cpu-generic/conv2d.hpp"
#include "deploy/cuda-generic/conv2d.hpp"
#include "deploy/cuda-sm90/conv2d.hpp"
#include "deploy/cuda-sm90/conv2d_ieee.hpp"
#include "deploy/cuda-sm90/conv2d_tf32.hpp"
#include "portkern/dnn.hpp"

namespace portkern::conv2d_impl {

// Every device class's conv2d deployment (tests check that each class of the device-class table has one), and
// those of a class for a precision its default one does not serve well: cuda-sm90's default one picks a 3xTF32
// implicit configuration, which the ieee precision does not allow (without conv2d_ieee its fallback, im2col,
// would run such layers); its conv2d_tf32, measured at tf32 (implicit TF32 fragments, the GEMMs inside im2col
// and gemm_1x1 at tf32; Winograd's stay accurate), picks TF32 where it wins. Elsewhere at tf32 a class's default
// deployment serves, its GEMMs at tf32.
using Conv2dDeployments =
    detail::DeploymentList<deploy::cpu_avx512::conv2d, deploy::cpu_avx2::conv2d, deploy::cpu_generic::conv2d,
                           deploy::cuda_sm90::conv2d, deploy::cuda_sm90::conv2d_ieee, deploy::cuda_sm90::conv2d_tf32,
                           deploy::cuda_generic::conv2d>;

// What a deployment's trees read of a complete descriptor (conv2d_complete: the output size filled in).
inline deploy::ConvProblem conv_problem(const Conv2dDesc& d) {
  return {d.batch,    d.in_h,     d.in_w,     d.in_c,    d.out_h,   d.out_w,  d.out_c,
          d.window_h, d.window_w, d.stride_h, d.stride_w, d.pad_top, d.pad_left};
}

}  // namespace portkern::conv2d_impl
