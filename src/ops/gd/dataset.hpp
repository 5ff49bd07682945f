// A deterministic gisette-like data set for gd's tests and benchmark (gisette_scale itself is a download):
// m x n, each row with a uniform number of nonzeros in [min_nnz, max_nnz] at distinct random columns,
// values uniform in [-1, 1], every row scaled to unit L2 norm (as HeCBench does when loading), labels the
// sign of a hidden Gaussian linear model plus 10% noise. Rows may be empty when min_nnz = 0 (z = 0, the
// label kept from the noise).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

namespace portkern::ops::gd_impl {

struct Dataset {
  std::int64_t rows = 0, cols = 0;
  std::vector<std::int64_t> row_ptr;
  std::vector<std::int32_t> col_idx;
  std::vector<float> values, labels;
};

inline Dataset make_dataset(std::int64_t rows, std::int64_t cols, std::int64_t min_nnz, std::int64_t max_nnz,
                            unsigned seed) {
  Dataset d;
  d.rows = rows;
  d.cols = cols;
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> gauss(0.0, 1.0);
  std::uniform_real_distribution<float> value(-1.f, 1.f);
  std::vector<double> hidden(static_cast<std::size_t>(cols));
  for (auto& w : hidden) w = gauss(rng);
  std::vector<std::int32_t> perm(static_cast<std::size_t>(cols));
  std::iota(perm.begin(), perm.end(), 0);
  d.row_ptr.push_back(0);
  for (std::int64_t i = 0; i < rows; ++i) {
    std::int64_t nnz = min_nnz + std::int64_t(rng() % std::uint64_t(max_nnz - min_nnz + 1));
    nnz = std::min(nnz, cols);
    for (std::int64_t k = 0; k < nnz; ++k)   // partial Fisher-Yates: nnz distinct columns
      std::swap(perm[std::size_t(k)], perm[std::size_t(k + std::int64_t(rng() % std::uint64_t(cols - k)))]);
    std::vector<std::int32_t> c(perm.begin(), perm.begin() + nnz);
    std::sort(c.begin(), c.end());
    std::vector<float> v(static_cast<std::size_t>(nnz));
    double norm = 0, dot = 0;
    for (std::int64_t k = 0; k < nnz; ++k) {
      v[std::size_t(k)] = value(rng);
      norm += double(v[std::size_t(k)]) * v[std::size_t(k)];
    }
    norm = std::sqrt(norm);
    for (std::int64_t k = 0; k < nnz; ++k) {
      if (norm > 0) v[std::size_t(k)] = float(v[std::size_t(k)] / norm);
      dot += double(v[std::size_t(k)]) * hidden[std::size_t(c[std::size_t(k)])];
    }
    const double noisy = dot / std::sqrt(double(std::max<std::int64_t>(nnz, 1))) + 0.1 * gauss(rng);
    d.labels.push_back(noisy >= 0 ? 1.f : -1.f);
    d.col_idx.insert(d.col_idx.end(), c.begin(), c.end());
    d.values.insert(d.values.end(), v.begin(), v.end());
    d.row_ptr.push_back(std::int64_t(d.col_idx.size()));
  }
  return d;
}

}  // namespace portkern::ops::gd_impl
