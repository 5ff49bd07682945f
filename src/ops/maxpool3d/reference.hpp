// maxpool3d's reference: the definition, window by window, in scan order (rows, then columns).
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "ops/maxpool3d/plan.hpp"

namespace portkern::ops::maxpool3d_impl {

inline std::vector<float> reference(std::int64_t z, std::int64_t h_in, std::int64_t w_in, std::int64_t window,
                                    std::int64_t stride, const std::vector<float>& in) {
  const std::int64_t h_out = (h_in - window) / stride + 1, w_out = (w_in - window) / stride + 1;
  std::vector<float> out(std::size_t(z * h_out * w_out));
  for (std::int64_t k = 0; k < z; ++k)
    for (std::int64_t y = 0; y < h_out; ++y)
      for (std::int64_t x = 0; x < w_out; ++x) {
        float m = -std::numeric_limits<float>::infinity();
        for (std::int64_t r = 0; r < window; ++r)
          for (std::int64_t c = 0; c < window; ++c)
            m = max_step(m, in[std::size_t((k * h_in + y * stride + r) * w_in + x * stride + c)]);
        out[std::size_t((k * h_out + y) * w_out + x)] = m;
      }
  return out;
}

}  // namespace portkern::ops::maxpool3d_impl
