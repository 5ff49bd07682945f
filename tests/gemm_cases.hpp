// GEMM's test bed, shared by the CPU and GPU tests and by every family and configuration: a float64
// reference on random inputs, sizes 1, primes and non-multiples of every tile, all transpose combinations,
// alpha/beta variants (beta == 0 with NaN in C), padded leading dimensions, batches; C's padding is
// poisoned and must stay untouched; the error bound grows with k.
#pragma once

#include <algorithm>
#include <cmath>
#include <type_traits>
#include <string>
#include <vector>

#include "portkern/blas.hpp"
#include "testing.hpp"

namespace portkern {
// Test names and messages show a choice by its configuration's name (and its precision, other than the default).
inline void PrintTo(const GemmChoice& choice, std::ostream* os) {
  *os << choice.config << (choice.precision == Precision::accurate ? "" : " at " + std::string(name(choice.precision)));
}
}  // namespace portkern

namespace portkern::testing {

struct GemmCase {
  bool ta, tb;
  std::int64_t m, n, k;
  double alpha, beta;
  std::int64_t pad = 0;     // added to every leading dimension
  std::int64_t batch = 1;
};

inline std::string describe(const GemmCase& c) {
  return std::string(c.ta ? "T" : "N") + (c.tb ? "T" : "N") + " m=" + std::to_string(c.m) + " n=" + std::to_string(c.n) +
         " k=" + std::to_string(c.k) + " alpha=" + std::to_string(c.alpha) + " beta=" + std::to_string(c.beta) +
         " pad=" + std::to_string(c.pad) + " batch=" + std::to_string(c.batch);
}

// Runs one case on `q` (which other threads may share) and checks C against the float64 reference.
template <class T>
void check_gemm(Queue& q, const GemmCase& c, const GemmChoice& choice) {
  SCOPED_TRACE(describe(c) + " " + choice.family + " " + choice.config + " precision " +
               std::string(name(choice.precision)));
  const Device device = q.device();
  const std::int64_t rows_a = c.ta ? c.k : c.m, cols_a = c.ta ? c.m : c.k;
  const std::int64_t rows_b = c.tb ? c.n : c.k, cols_b = c.tb ? c.k : c.n;
  const std::int64_t lda = std::max<std::int64_t>(1, rows_a) + c.pad, ldb = std::max<std::int64_t>(1, rows_b) + c.pad;
  const std::int64_t ldc = std::max<std::int64_t>(1, c.m) + c.pad;
  const std::int64_t sa = lda * cols_a + 3, sb = ldb * cols_b + 5, sc = ldc * c.n + 7;   // odd batch strides
  const auto a = random_vector<T>(std::size_t(std::max<std::int64_t>(1, sa * c.batch)), 11);
  const auto b = random_vector<T>(std::size_t(std::max<std::int64_t>(1, sb * c.batch)), 12);
  auto c0 = random_vector<T>(std::size_t(std::max<std::int64_t>(1, sc * c.batch)), 13);
  auto in_c = [&](std::int64_t index) {   // inside some problem's m x n part of C?
    const std::int64_t within = index % sc;
    return index < sc * c.batch && within < ldc * c.n && within % ldc < c.m;
  };
  for (std::size_t i = 0; i < c0.size(); ++i)
    if (!in_c(std::int64_t(i)) || c.beta == 0) c0[i] = poison<T>;   // beta == 0: C must not be read

  Buffer<T> da(device, std::int64_t(a.size())), db(device, std::int64_t(b.size())), dc(device, std::int64_t(c0.size()));
  da.upload(q, a);
  db.upload(q, b);
  dc.upload(q, c0);
  gemm_strided_batched<T>(q, c.ta ? Op::trans : Op::none, c.tb ? Op::trans : Op::none, c.m, c.n, c.k, T(c.alpha),
                          da.data(), lda, sa, db.data(), ldb, sb, T(c.beta), dc.data(), ldc, sc, c.batch, choice);
  const auto got = dc.download(q);

  const double eps = std::numeric_limits<T>::epsilon();
  // TF32 (float only) rounds each operand to 10 mantissa bits (relative error <= 2^-11): a product is off by up
  // to 2^-10 of its magnitude before the fp32 sum's own error.
  const double operand_rounding = std::is_same_v<T, float> && choice.precision == Precision::tf32 ? 0x1p-10 : 0.0;
  for (std::int64_t p = 0; p < c.batch; ++p)
    for (std::int64_t j = 0; j < c.n; ++j)
      for (std::int64_t i = 0; i < c.m; ++i) {
        double sum = 0, magnitude = 0;
        for (std::int64_t l = 0; l < c.k; ++l) {
          const double x = a[p * sa + (c.ta ? i * lda + l : l * lda + i)];
          const double y = b[p * sb + (c.tb ? l * ldb + j : j * ldb + l)];
          sum += x * y;
          magnitude += std::abs(x * y);
        }
        const std::int64_t at = p * sc + j * ldc + i;
        const double old = c.beta == 0 ? 0.0 : double(c0[at]);
        const double want = c.alpha * sum + c.beta * old;
        const double bound = (4 * eps * (double(c.k) + 2) + operand_rounding) *
                                 (std::abs(c.alpha) * magnitude + std::abs(c.beta * old)) + 1e-30;
        ASSERT_LE(std::abs(double(got[at]) - want), bound)
            << "at batch " << p << " (" << i << ", " << j << "): got " << got[at] << " want " << want;
      }
  for (std::size_t i = 0; i < got.size(); ++i)
    if (!in_c(std::int64_t(i))) ASSERT_TRUE(std::isnan(got[i])) << "C's padding written at " << i;
}

template <class T>
void check_gemm(const Device& device, const GemmCase& c, const GemmChoice& choice) {
  Queue q(device);
  check_gemm<T>(q, c, choice);
}

// The cases every configuration runs.
inline std::vector<GemmCase> gemm_cases() {
  std::vector<GemmCase> cases;
  // Sizes 1, primes and non-multiples of every tile; a last block of one row (129 rows on blocks of 64 or
  // 128); and few blocks on a deep k, where the staged mode splits k over several groups per block (with 2
  // threads as well as on 132 multiprocessors: GemmStagedPlan.* in test_gemm.cpp); a row and a column of 300
  // outputs (the GPU's single-launch GEMV paths, m == 1 and n == 1, take 256 or more).
  const std::int64_t shapes[][3] = {{1, 1, 1},     {1, 7, 13},      {7, 1, 13},     {13, 7, 1},   {31, 37, 41},
                                    {64, 64, 64},  {97, 65, 129},   {130, 33, 257}, {129, 6, 33}, {37, 41, 4099},
                                    {1, 300, 517}, {300, 1, 517}};
  const double scalars[][2] = {{1, 0}, {-1.5, 0.5}, {0.7, 1}};
  int variant = 0;
  for (auto [m, n, k] : shapes)
    for (bool ta : {false, true})
      for (bool tb : {false, true}) {
        const auto& s = scalars[variant % 3];
        cases.push_back({ta, tb, m, n, k, s[0], s[1], variant % 2 ? 3 : 0, variant % 4 == 1 ? 3 : 1});
        ++variant;
      }
  return cases;
}

// Every family and configuration the deployments of a device class instantiate, each at the precision of its
// deployment (the default one's at the loosest precision it serves: a class without a deployment of its own for
// a precision uses the default one), once.
inline std::vector<GemmChoice> deployed_choices_of_class(const std::string& device_class) {
  std::vector<GemmChoice> choices;
  for (Precision p : {Precision::accurate, Precision::ieee, Precision::tf32}) {
    const GemmDeployment d = gemm_deployment_of_class(device_class, p);
    if (d.precision != p) continue;
    for (std::size_t f = 0; f < d.families.size(); ++f)
      for (const auto& config : d.configs[f])
        if (std::none_of(choices.begin(), choices.end(), [&](const GemmChoice& c) { return c.config == config; }))
          choices.push_back({d.families[f], config, p});
  }
  return choices;
}
inline std::vector<GemmChoice> deployed_choices(const Device& device) {
  return deployed_choices_of_class(gemm_device_class(device));
}

}  // namespace portkern::testing
