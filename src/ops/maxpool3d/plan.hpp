// maxpool3d as the kernels see it, and the running-max step shared by kernels and reference.
#pragma once

#include <cstdint>

#include "portkern/kernel/model.hpp"

namespace portkern::ops::maxpool3d_impl {

struct Plan {
  std::int64_t z = 0, h_in = 0, w_in = 0, window = 2, stride = 2, h_out = 0, w_out = 0;
  bool vector = false;   // window = stride = 2, w_in % 8 == 0, both pointers 16-byte aligned
};

// torch's max_pool2d update: take v if it is greater than the running max or NaN (a NaN max then stays).
PORTKERN_INLINE float max_step(float m, float v) { return (v > m || v != v) ? v : m; }

}  // namespace portkern::ops::maxpool3d_impl
