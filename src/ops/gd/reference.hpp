// gd's reference: one iteration in float64 over the CSR rows (the gradient by scatter, the definition).
// Returns objective and error of x before the update, and how many rows had |z| < 1e-5 (where float and
// float64 may predict differently), and updates x.
#pragma once

#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

namespace portkern::ops::gd_impl {

struct StepResult {
  double objective = 0, error = 0;
  std::int64_t near_zero = 0;
};

inline StepResult reference_step(std::int64_t rows, std::int64_t cols, std::span<const std::int64_t> row_ptr,
                                 std::span<const std::int32_t> col_idx, std::span<const float> values,
                                 std::span<const float> labels, double lambda, double alpha, std::vector<double>& x) {
  std::vector<double> grad(std::size_t(cols), 0.0);
  double loss = 0, xsq = 0;
  std::int64_t correct = 0;
  StepResult r;
  for (std::int64_t i = 0; i < rows; ++i) {
    double z = 0;
    for (std::int64_t k = row_ptr[std::size_t(i)]; k < row_ptr[std::size_t(i + 1)]; ++k)
      z += double(values[std::size_t(k)]) * x[std::size_t(col_idx[std::size_t(k)])];
    const double y = labels[std::size_t(i)];
    loss += std::log1p(std::exp(-y * z));
    correct += ((z >= 0 ? 1.0 : -1.0) == y);
    r.near_zero += std::abs(z) < 1e-5;
    const double coef = -y / (1.0 + std::exp(y * z));   // -sigmoid(-y z) * y
    for (std::int64_t k = row_ptr[std::size_t(i)]; k < row_ptr[std::size_t(i + 1)]; ++k)
      grad[std::size_t(col_idx[std::size_t(k)])] += coef * double(values[std::size_t(k)]);
  }
  for (std::int64_t j = 0; j < cols; ++j) {
    xsq += x[std::size_t(j)] * x[std::size_t(j)];
    x[std::size_t(j)] -= alpha * (grad[std::size_t(j)] / double(rows) + lambda * x[std::size_t(j)]);
  }
  r.objective = loss / double(rows) + 0.5 * lambda * xsq;
  r.error = 1.0 - double(correct) / double(rows);
  return r;
}

}  // namespace portkern::ops::gd_impl
