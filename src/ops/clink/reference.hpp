// clink's reference (the definition in float64) and the deterministic stand-ins for HeCBench's data files.
#pragma once

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "portkern/ops/clink.hpp"

namespace portkern::ops::clink_impl {

// y[s][t] for the given rows of x ([sequences][steps]); returns rows.size() x steps values.
inline std::vector<double> reference(const ClinkWeights& w, std::int64_t steps, const std::vector<float>& x,
                                     const std::vector<std::int64_t>& rows) {
  std::vector<double> y;
  y.reserve(rows.size() * std::size_t(steps));
  auto sig = [](double a) { return 1 / (1 + std::exp(-a)); };
  for (std::int64_t row : rows) {
    double h[5] = {}, c[5] = {};
    for (std::int64_t t = 0; t < steps; ++t) {
      const double xt = x[std::size_t(row * steps + t)];
      double a[4][5];
      for (int k = 0; k < 4; ++k)
        for (int j = 0; j < 5; ++j) {
          double s = double(w.bias[k][j]) + double(w.in_w[k][j]) * xt;
          for (int i = 0; i < 5; ++i) s += double(w.rec_w[k][j][i]) * h[i];
          a[k][j] = s;
        }
      double out = w.out_b;
      for (int j = 0; j < 5; ++j) {
        c[j] = sig(a[1][j]) * c[j] + sig(a[0][j]) * std::tanh(a[3][j]);
        h[j] = sig(a[2][j]) * std::tanh(c[j]);
        out += double(w.out_w[j]) * h[j];
      }
      y.push_back(out);
    }
  }
  return y;
}

// The 146 weights of a "weight file": uniform in +-1/sqrt(5) (PyTorch's LSTM initialisation) from mt19937(seed).
inline std::vector<float> make_weight_file(unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-0.4472136f, 0.4472136f);
  std::vector<float> v(146);
  for (auto& e : v) e = u(rng);
  return v;
}

// The "input file": one EEG-like sequence (two sines plus noise, mt19937(seed)); row s of x is that sequence
// rotated by 97 s steps, so rows differ (HeCBench copies one sequence to every row).
inline std::vector<float> make_input(std::int64_t sequences, std::int64_t steps, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> noise(0.f, 0.2f);
  std::vector<float> base(static_cast<std::size_t>(steps));
  for (std::int64_t t = 0; t < steps; ++t)
    base[std::size_t(t)] = 0.6f * std::sin(0.1257f * float(t)) + 0.3f * std::sin(0.4833f * float(t) + 1.f) + noise(rng);
  std::vector<float> x(static_cast<std::size_t>(sequences * steps));
  for (std::int64_t s = 0; s < sequences; ++s)
    for (std::int64_t t = 0; t < steps; ++t) x[std::size_t(s * steps + t)] = base[std::size_t((t + 97 * s) % steps)];
  return x;
}

}  // namespace portkern::ops::clink_impl
