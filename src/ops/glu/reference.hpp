// glu's reference: the definition over the original shape, in float64 (Y as double), stable sigmoid.
#pragma once

#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

namespace portkern::ops::glu_impl {

inline std::vector<double> reference(std::span<const std::int64_t> shape, int axis, std::span<const float> x) {
  const int rank = int(shape.size());
  if (axis < 0) axis += rank;
  std::int64_t before = 1, after = 1;
  for (int k = 0; k < axis; ++k) before *= shape[k];
  for (int k = axis + 1; k < rank; ++k) after *= shape[k];
  const std::int64_t half = shape[axis] / 2;
  std::vector<double> y(std::size_t(before * half * after));
  for (std::int64_t m = 0; m < before; ++m)
    for (std::int64_t j = 0; j < half; ++j)
      for (std::int64_t n = 0; n < after; ++n) {
        const double p = x[std::size_t((m * 2 * half + j) * after + n)];
        const double q = x[std::size_t((m * 2 * half + half + j) * after + n)];
        const double s = q >= 0 ? 1 / (1 + std::exp(-q)) : std::exp(q) / (1 + std::exp(q));
        y[std::size_t((m * half + j) * after + n)] = p * (std::isnan(q) ? q : s);
      }
  return y;
}

}  // namespace portkern::ops::glu_impl
