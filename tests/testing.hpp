// What every portkern test shares: random inputs (never zeros), poisoned outputs, the GPU queue or a skip,
// and an assertion that a call throws portkern::Error with a message that names what was wrong.
#pragma once

#include <gtest/gtest.h>

#include <cctype>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "portkern/portkern.hpp"

namespace portkern::testing {

// Uniform in [-1, -0.1] u [0.1, 1]: random, never zero, so unwritten outputs and wrong indexing show.
template <class T>
std::vector<T> random_vector(std::size_t count, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> magnitude(0.1, 1.0);
  std::vector<T> v(count);
  for (auto& x : v) x = T(rng() & 1 ? magnitude(rng) : -magnitude(rng));
  return v;
}

template <class T>
constexpr T poison = std::numeric_limits<T>::quiet_NaN();

// A column-major rows x cols C with leading dimension ld: poisoned in its padding rows, and everywhere when
// it must not be read (beta == 0), so that a product that writes past C or reads it shows.
template <class T>
void poison_unread(std::vector<T>& c, std::int64_t rows, std::int64_t cols, std::int64_t ld, bool read) {
  for (std::int64_t j = 0; j < cols; ++j)
    for (std::int64_t i = 0; i < ld; ++i)
      if (i >= rows || !read) c[std::size_t(j * ld + i)] = poison<T>;
}

// A parameterised test's name from its choice's configuration ("tiled/r4a1c4_wg16x16_global" ->
// "tiled_r4a1c4_wg16x16_global"): tests are named by configuration.
struct ConfigName {
  template <class Choice>
  std::string operator()(const ::testing::TestParamInfo<Choice>& info) const {
    std::string name = info.param.config;
    for (char& ch : name)
      if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
    return name;
  }
};

// Whether the first GPU (present: the caller checked) has compute capability 9.0, where the wgmma kernels run.
inline bool hopper() { return Device::cuda(0).properties().arch == "sm_90"; }

}  // namespace portkern::testing

// Skips the test (reported as skipped by CTest) when no GPU is present.
#define PORTKERN_REQUIRE_GPU()                                                       \
  do {                                                                               \
    if (::portkern::cuda_device_count() == 0) GTEST_SKIP() << "no CUDA GPU present"; \
  } while (0)

// Skips the test unless a GPU of compute capability 9.0 is present (the wgmma kernels, src/gemm/cuda_wgmma/).
#define PORTKERN_REQUIRE_HOPPER()                                                                     \
  do {                                                                                                \
    PORTKERN_REQUIRE_GPU();                                                                           \
    if (!::portkern::testing::hopper()) GTEST_SKIP() << "the wgmma kernels need compute capability 9.0"; \
  } while (0)

// Expects `statement` to throw portkern::Error whose message contains `text`.
#define EXPECT_PORTKERN_ERROR(statement, text)                                            \
  do {                                                                                    \
    try {                                                                                 \
      statement;                                                                          \
      ADD_FAILURE() << "expected portkern::Error containing '" << (text) << "'";          \
    } catch (const ::portkern::Error& e) {                                                \
      EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what();        \
    }                                                                                     \
  } while (0)
