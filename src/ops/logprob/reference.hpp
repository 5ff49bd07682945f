// logprob's reference: the definition in float64, row by row (two passes: max, then sum).
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace portkern::ops::logprob_impl {

struct Reference {
  std::vector<double> log_probs;   // [batch][steps - 1]
  std::vector<double> cum;         // [batch]
};

inline Reference reference(std::int64_t batch, std::int64_t steps, std::int64_t vocab, std::int64_t padded,
                           const std::vector<float>& logits, const std::vector<int>& ids,
                           const std::vector<int>& lengths) {
  Reference ref;
  ref.log_probs.assign(std::size_t(batch * (steps - 1)), 0.0);
  ref.cum.assign(std::size_t(batch), 0.0);
  for (std::int64_t b = 0; b < batch; ++b)
    for (std::int64_t t = 0; t + 1 < lengths[std::size_t(b)]; ++t) {
      const float* r = logits.data() + (b * steps + t) * padded;
      double m = -std::numeric_limits<double>::infinity();
      for (std::int64_t v = 0; v < vocab; ++v) m = std::max(m, double(r[v]));
      double s = 0;
      for (std::int64_t v = 0; v < vocab; ++v) s += std::exp(double(r[v]) - m);
      const int id = ids[std::size_t(b * steps + t + 1)];
      const double target = id >= 0 && id < vocab ? double(r[id]) : std::nan("");
      const double lp = target - m - std::log(s + 1e-9);
      ref.log_probs[std::size_t(b * (steps - 1) + t)] = lp;
      ref.cum[std::size_t(b)] += lp;
    }
  return ref;
}

}  // namespace portkern::ops::logprob_impl
