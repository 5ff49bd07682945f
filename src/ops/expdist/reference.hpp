// expdist's reference: the double sum in float64, every pair.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

namespace portkern::ops::expdist_impl {

template <class T>
double reference(std::int64_t m, std::int64_t n, const std::vector<T>& a, const std::vector<T>& b,
                 const std::vector<T>& sigma_a, const std::vector<T>& sigma_b) {
  double total = 0;
  for (std::int64_t i = 0; i < m; ++i) {
    const double ax = a[std::size_t(i)], ay = a[std::size_t(m + i)], sa = sigma_a[std::size_t(i)];
    double row = 0;
    for (std::int64_t j = 0; j < n; ++j) {
      const double dx = ax - double(b[std::size_t(j)]), dy = ay - double(b[std::size_t(n + j)]);
      row += std::exp(-(dx * dx + dy * dy) / (sa + double(sigma_b[std::size_t(j)])));
    }
    total += row;
  }
  return total;
}

}  // namespace portkern::ops::expdist_impl
