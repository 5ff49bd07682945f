// multinomial's reference: the definition in float64, serially: the first j with w_j > 0 and
// prefix_j > u * sum(w) (equivalently C_{j-1} <= u < C_j), else the last positive weight; 0 for a zero row.
#pragma once

#include <cstdint>
#include <vector>

namespace portkern::ops::multinomial_impl {

inline std::vector<int> reference(std::int64_t rows, std::int64_t categories, const std::vector<float>& weights,
                                  const std::vector<float>& uniforms) {
  std::vector<int> out(std::size_t(rows), 0);
  for (std::int64_t r = 0; r < rows; ++r) {
    const float* w = weights.data() + r * categories;
    double total = 0;
    for (std::int64_t j = 0; j < categories; ++j) total += w[j];
    if (!(total > 0)) continue;
    const double target = double(uniforms[std::size_t(r)]) * total;
    double prefix = 0;
    int found = -1, last = 0;
    for (std::int64_t j = 0; j < categories && found < 0; ++j) {
      prefix += w[j];
      if (w[j] > 0 && prefix > target) found = int(j);
    }
    for (std::int64_t j = 0; j < categories; ++j)
      if (w[j] > 0) last = int(j);
    out[std::size_t(r)] = found >= 0 ? found : last;
  }
  return out;
}

}  // namespace portkern::ops::multinomial_impl
