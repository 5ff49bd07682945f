// dwconv's reference: the definition in float64, one output at a time, for images [n0, n1) of the batch
// (the benchmark checks a subset at its default sizes). Returns [n1 - n0][C*m][Ho][Wo].
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "portkern/ops/dwconv.hpp"

namespace portkern::ops::dwconv_impl {

inline std::vector<double> reference(const DwconvShape& s, std::span<const float> in, std::span<const float> weight,
                                     const float* bias, std::int64_t n0, std::int64_t n1) {
  const std::int64_t Ho = s.out_height(), Wo = s.out_width(), OC = s.out_channels(), k = s.kernel;
  std::vector<double> out(std::size_t((n1 - n0) * OC * Ho * Wo));
  std::size_t o = 0;
  for (std::int64_t n = n0; n < n1; ++n)
    for (std::int64_t c = 0; c < OC; ++c) {
      const float* plane = in.data() + (n * s.channels + c / s.multiplier) * s.height * s.width;
      for (std::int64_t y = 0; y < Ho; ++y)
        for (std::int64_t x = 0; x < Wo; ++x) {
          double acc = bias ? double(bias[c]) : 0.0;
          for (std::int64_t i = 0; i < k; ++i)
            for (std::int64_t j = 0; j < k; ++j) {
              const std::int64_t iy = y - s.pad + i, ix = x - s.pad + j;
              if (iy < 0 || iy >= s.height || ix < 0 || ix >= s.width) continue;
              acc += double(weight[std::size_t((c * k + i) * k + j)]) * double(plane[iy * s.width + ix]);
            }
          out[o++] = acc;
        }
    }
  return out;
}

}  // namespace portkern::ops::dwconv_impl
