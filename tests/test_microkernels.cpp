// The CPU micro-kernels (portkern/kernel/cpu/microkernel.hpp), called directly through their one signature:
// every ISA this CPU executes (so the AVX2 and plain C++ sets are tested on an AVX-512 machine), every edge
// kernel (vectors x columns x B layout), partial last vectors, depths 0, 1 and primes, alpha/beta with beta == 0
// over NaN-poisoned C, against float64. C's padding is poisoned and must stay untouched; an ISA that reads A in
// place gets NaN below the tile's rows, which must not reach C.
#include <cmath>

#include "portkern/kernel/cpu/microkernel.hpp"
#include "testing.hpp"

namespace portkern {
inline void PrintTo(const DeviceClass& c, std::ostream* os) { *os << c.name; }
}  // namespace portkern

namespace portkern::testing {
namespace {

using kernel::cpu::MicroKernels;

template <class T>
void check_set(const MicroKernels<T>& set) {
  const auto& blk = set.blocking;
  const int lanes = blk.lanes;
  const double eps = std::numeric_limits<T>::epsilon();
  for (int b_columns = 0; b_columns < 2; ++b_columns)
    for (int vectors = 1; vectors <= blk.vectors; ++vectors)
      for (int cols = 1; cols <= blk.nr; ++cols)
        for (int last_rows : {1, lanes / 2 + 1, lanes})
          for (std::int64_t k : {0, 1, 13, 67})
            for (bool in_place_a : {false, true}) {
              if (in_place_a && !blk.reads_unpacked_a) continue;
              const double alpha = k % 2 ? 1.0 : -1.5, beta = (vectors + cols) % 2 ? 0.0 : 0.5;
              SCOPED_TRACE("b_columns=" + std::to_string(b_columns) + " vectors=" + std::to_string(vectors) +
                           " cols=" + std::to_string(cols) + " last_rows=" + std::to_string(last_rows) +
                           " k=" + std::to_string(k) + " in_place_a=" + std::to_string(in_place_a));
              const int rows = (vectors - 1) * lanes + last_rows, width = vectors * lanes;
              // A: a packed panel (zero rows below `rows`) or, in place, a column-major matrix with NaN there.
              const std::int64_t a_step = in_place_a ? width + 5 : width;
              auto a = random_vector<T>(std::size_t(std::max<std::int64_t>(1, a_step * k)), 21);
              for (std::int64_t p = 0; p < k; ++p)
                for (std::int64_t i = rows; i < a_step; ++i) a[p * a_step + i] = in_place_a ? poison<T> : T(0);
              const std::int64_t b_step = b_columns ? k + 3 : cols;
              const auto b = random_vector<T>(std::size_t(std::max<std::int64_t>(1, b_columns ? b_step * cols : b_step * k)), 22);
              const std::int64_t ldc = rows + 2;
              auto c = random_vector<T>(std::size_t(ldc * cols), 23);
              const auto c0 = c;
              for (std::int64_t j = 0; j < cols; ++j)
                for (std::int64_t i = 0; i < ldc; ++i)
                  if (i >= rows || beta == 0) c[j * ldc + i] = poison<T>;
              set.kernel(b_columns, vectors, cols)(k, a.data(), a_step, b.data(), b_step, c.data(), ldc, T(alpha),
                                                   T(beta), last_rows, a.data(), 1);
              for (std::int64_t j = 0; j < cols; ++j)
                for (std::int64_t i = 0; i < ldc; ++i) {
                  const T got = c[j * ldc + i];
                  if (i >= rows) {
                    ASSERT_TRUE(std::isnan(got)) << "C's padding written at (" << i << ", " << j << ")";
                    continue;
                  }
                  double sum = 0, magnitude = 0;
                  for (std::int64_t p = 0; p < k; ++p) {
                    const double x = a[p * a_step + i], y = b_columns ? b[j * b_step + p] : b[p * b_step + j];
                    sum += x * y;
                    magnitude += std::abs(x * y);
                  }
                  const double old = beta == 0 ? 0.0 : double(c0[j * ldc + i]);
                  const double want = alpha * sum + beta * old;
                  const double bound = 4 * eps * (double(k) + 2) * (std::abs(alpha) * magnitude + std::abs(beta * old)) + 1e-30;
                  ASSERT_LE(std::abs(double(got) - want), bound) << "at (" << i << ", " << j << ")";
                }
            }
}

std::vector<DeviceClass> executable_cpu_classes() {
  std::vector<DeviceClass> classes;
  for (const DeviceClass& c : device_classes())
    if (c.backend == Backend::cpu && c.runs_on(Device::cpu().properties())) classes.push_back(c);
  return classes;
}

class MicroKernelsOfEachIsa : public ::testing::TestWithParam<DeviceClass> {};

TEST_P(MicroKernelsOfEachIsa, FloatMatchesReference) {
  const auto* set = kernel::cpu::microkernels<float>(GetParam().cpu_isa);
  ASSERT_NE(set, nullptr);
  EXPECT_EQ(set->isa, GetParam().cpu_isa);
  check_set(*set);
}
TEST_P(MicroKernelsOfEachIsa, DoubleMatchesReference) {
  const auto* set = kernel::cpu::microkernels<double>(GetParam().cpu_isa);
  ASSERT_NE(set, nullptr);
  EXPECT_EQ(set->isa, GetParam().cpu_isa);
  check_set(*set);
}

// The block sizes are data of each set: within the tables' bounds, every kernel up to MR x NR present, a B
// micro-panel (KC x NR) inside a 32 KiB L1, an A block of at least one micro-panel.
TEST_P(MicroKernelsOfEachIsa, BlockingIsConsistent) {
  const auto& blk = kernel::cpu::microkernels<float>(GetParam().cpu_isa)->blocking;
  EXPECT_LE(blk.vectors, kernel::cpu::max_vectors);
  EXPECT_LE(blk.nr, kernel::cpu::max_nr);
  EXPECT_LE(blk.kc * blk.nr * std::int64_t(sizeof(float)), 32 * 1024);
  EXPECT_GE(blk.mc, blk.mr());
  const auto* set = kernel::cpu::microkernels<float>(GetParam().cpu_isa);
  for (int b_columns = 0; b_columns < 2; ++b_columns)
    for (int vectors = 1; vectors <= blk.vectors; ++vectors)
      for (int cols = 1; cols <= blk.nr; ++cols) EXPECT_NE(set->kernel(b_columns, vectors, cols), nullptr);
}

INSTANTIATE_TEST_SUITE_P(Executable, MicroKernelsOfEachIsa, ::testing::ValuesIn(executable_cpu_classes()),
                         [](const ::testing::TestParamInfo<DeviceClass>& info) {
                           return std::string(cpu_isa_name(info.param.cpu_isa));
                         });

}  // namespace
}  // namespace portkern::testing
