// cross_entropy_backward's reference: the (corrected) definition in float64, element by element, from the
// inputs widened to double.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "ops/cross_entropy/plan.hpp"

namespace portkern::ops::cross_entropy_impl {

template <class T>
double as_double(T x) {
  if constexpr (std::is_same_v<T, half>) return double(kernel::to_float(x));
  else return double(x);
}

template <class T>
std::vector<double> reference(std::int64_t batch, std::int64_t classes, std::int64_t positions,
                              const std::vector<T>& log_probs, const std::vector<std::int64_t>& target,
                              const std::vector<T>& weight, const std::vector<T>& grad_out,
                              const std::vector<T>& grad_out_neg, const std::vector<std::int64_t>& mask) {
  std::vector<double> grad(log_probs.size());
  for (std::int64_t b = 0; b < batch; ++b)
    for (std::int64_t h = 0; h < positions; ++h) {
      const std::size_t i = std::size_t(b * positions + h);
      const double gamma = -(as_double(grad_out[i]) + double(mask[i]) * as_double(grad_out_neg[i])) * as_double(weight[i]);
      for (std::int64_t k = 0; k < classes; ++k) {
        const std::size_t j = std::size_t((b * classes + k) * positions + h);
        grad[j] = (k == target[i] ? gamma : 0.0) - std::exp(as_double(log_probs[j])) * gamma;
      }
    }
  return grad;
}

}  // namespace portkern::ops::cross_entropy_impl
