// attention's reference: the definition in float64 (max subtracted), one row at a time.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

namespace portkern::ops::attention_impl {

inline std::vector<double> reference(std::int64_t n, std::int64_t d, std::span<const float> K,
                                     std::span<const float> V, std::span<const float> q) {
  std::vector<double> s(std::size_t(n), 0.0), out(std::size_t(d), 0.0);
  double smax = -INFINITY;
  for (std::int64_t i = 0; i < n; ++i) {
    double acc = 0;
    for (std::int64_t j = 0; j < d; ++j) acc += double(K[std::size_t(i * d + j)]) * double(q[std::size_t(j)]);
    s[std::size_t(i)] = acc;
    smax = std::max(smax, acc);
  }
  double sum = 0;
  for (auto& x : s) sum += (x = std::exp(x - smax));
  for (std::int64_t i = 0; i < n; ++i) {
    const double w = s[std::size_t(i)] / sum;
    for (std::int64_t j = 0; j < d; ++j) out[std::size_t(j)] += w * double(V[std::size_t(i * d + j)]);
  }
  return out;
}

}  // namespace portkern::ops::attention_impl
