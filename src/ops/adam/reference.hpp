// adam's reference: the definition in float64 (the float parameters widened exactly), beta^t by pow.
#pragma once

#include <cmath>
#include <cstddef>
#include <vector>

#include "portkern/ops/adam.hpp"

namespace portkern::ops::adam_impl {

// Updates p, m, v (float64 copies) in place for one call.
inline void reference(const AdamOptions& o, std::vector<double>& p, std::vector<double>& m, std::vector<double>& v,
                      const std::vector<float>& g) {
  const double b1 = o.beta1, b2 = o.beta2, lr = o.lr, eps = o.eps, decay = o.decay;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const double gh = double(g[i]) / double(o.grad_scale);
    for (int t = 1; t <= o.steps; ++t) {
      m[i] = b1 * m[i] + (1 - b1) * gh;
      v[i] = b2 * v[i] + (1 - b2) * gh * gh;
      const double mh = m[i] / (1 - std::pow(b1, t)), vh = v[i] / (1 - std::pow(b2, t));
      const double denom = o.mode == AdamMode::adamw ? std::sqrt(vh) + eps : std::sqrt(vh + eps);
      p[i] = p[i] - lr * (mh / denom + decay * p[i]);
    }
  }
}

}  // namespace portkern::ops::adam_impl
