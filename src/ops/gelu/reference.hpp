// gelu's reference: the half-precision add (exact: a float add rounded once to half, see half.hpp), then the
// GELU in float64, returned unrounded (the test bounds the final rounding to half explicitly).
#pragma once

#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

#include "portkern/kernel/half.hpp"

namespace portkern::ops::gelu_impl {

inline std::vector<double> reference(std::int64_t hidden, std::span<const half> src, std::span<const half> bias) {
  std::vector<double> out(src.size());
  for (std::size_t i = 0; i < src.size(); ++i) {
    const double u =
        kernel::to_float(kernel::to_half(kernel::to_float(src[i]) + kernel::to_float(bias[i % std::size_t(hidden)])));
    out[i] = 0.5 * u * (1 + std::tanh(0.79788456 * (u + 0.044715 * u * u * u)));
  }
  return out;
}

}  // namespace portkern::ops::gelu_impl
