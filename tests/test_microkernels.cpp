// The CPU micro-kernels (portkern/kernel/cpu/microkernel.hpp), called directly through their one signature:
// every ISA this CPU executes (so the AVX2 and plain C++ sets are tested on an AVX-512 machine), every edge
// kernel (vectors x columns x B layout), partial last vectors, depths 0, 1 and primes, alpha/beta with beta == 0
// over NaN-poisoned C, against float64; the patch kernels likewise. C's padding is poisoned and must stay untouched; an ISA that reads A in
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

// C before a call: c0 with NaN below the tile's rows, and everywhere when beta == 0 (C must not be read).
template <class T>
std::vector<T> poisoned_c(const std::vector<T>& c0, std::int64_t ldc, int rows, int cols, double beta) {
  std::vector<T> c = c0;
  for (std::int64_t j = 0; j < cols; ++j)
    for (std::int64_t i = 0; i < ldc; ++i)
      if (i >= rows || beta == 0) c[j * ldc + i] = poison<T>;
  return c;
}

// C (ldc x cols, rows of it the tile) after a kernel call against float64: alpha * sum_p A(i, p) B(p, j) +
// beta * C0 within the tile, the NaN poison untouched below it.
template <class T, class BAt>
void expect_tile(const std::vector<T>& c, const std::vector<T>& c0, std::int64_t ldc, int rows, int cols,
                 std::int64_t k, const std::vector<T>& a, std::int64_t a_step, BAt b, double alpha, double beta) {
  const double eps = std::numeric_limits<T>::epsilon();
  for (std::int64_t j = 0; j < cols; ++j)
    for (std::int64_t i = 0; i < ldc; ++i) {
      const T got = c[j * ldc + i];
      if (i >= rows) {
        ASSERT_TRUE(std::isnan(got)) << "C's padding written at (" << i << ", " << j << ")";
        continue;
      }
      double sum = 0, magnitude = 0;
      for (std::int64_t p = 0; p < k; ++p) {
        const double x = a[p * a_step + i], y = b(p, j);
        sum += x * y;
        magnitude += std::abs(x * y);
      }
      const double old = beta == 0 ? 0.0 : double(c0[j * ldc + i]);
      const double want = alpha * sum + beta * old;
      const double bound = 4 * eps * (double(k) + 2) * (std::abs(alpha) * magnitude + std::abs(beta * old)) + 1e-30;
      ASSERT_LE(std::abs(double(got) - want), bound) << "at (" << i << ", " << j << ")";
    }
}

template <class T>
void check_set(const MicroKernels<T>& set) {
  const auto& blk = set.blocking;
  const int lanes = blk.lanes;
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
              const auto c0 = random_vector<T>(std::size_t(ldc * cols), 23);
              auto c = poisoned_c(c0, ldc, rows, cols, beta);
              set.kernel(b_columns, vectors, cols)(k, a.data(), a_step, b.data(), b_step, c.data(), ldc, T(alpha),
                                                   T(beta), last_rows, a.data(), 1);
              expect_tile(c, c0, ldc, rows, cols, k, a, a_step,
                          [&](std::int64_t p, std::int64_t j) { return b_columns ? b[j * b_step + p] : b[p * b_step + j]; },
                          alpha, beta);
            }
}

// The patch micro-kernels: B's columns are patches of an "image" (runs of `run` values, `run + skip` apart,
// the first run_left long), columns equally spaced (told to the kernel or not) or not; every edge kernel of
// each panel width, runs longer and shorter than k.
template <class T>
void check_patch_set(const MicroKernels<T>& set) {
  const auto& blk = set.blocking;
  const int lanes = blk.lanes;
  const auto image = random_vector<T>(4096, 24);
  for (int vectors = 1; vectors <= blk.vectors; ++vectors)
    for (int cols = 1; cols <= blk.patch_nr[vectors - 1]; ++cols)
      for (int spacing = 0; spacing < 3; ++spacing)   // 37 apart, told; 37 apart, not told; uneven
      for (std::int64_t k : {0, 1, 13, 67})
        for (auto [run_left, run, skip] : {std::array<std::int64_t, 3>{5, 7, 11}, {21, 21, 3}, {100, 100, 0}, {1, 3, 40}}) {
          const int last_rows = cols % 2 ? lanes : 1 + (cols + vectors) % lanes;
          const double alpha = k % 2 ? 1.0 : -1.5, beta = (vectors + cols) % 2 ? 0.0 : 0.5;
          SCOPED_TRACE("vectors=" + std::to_string(vectors) + " cols=" + std::to_string(cols) + " spacing " +
                       std::to_string(spacing) + " k=" + std::to_string(k) + " runs " + std::to_string(run_left) +
                       "/" + std::to_string(run) + " skip " + std::to_string(skip));
          const int rows = (vectors - 1) * lanes + last_rows, width = vectors * lanes;
          auto a = random_vector<T>(std::size_t(std::max<std::int64_t>(1, width * k)), 21);
          for (std::int64_t p = 0; p < k; ++p)
            for (std::int64_t i = rows; i < width; ++i) a[p * width + i] = T(0);
          // B(p, j): column j starts 37 j + 3 into the image (columns overlap, as neighbouring patches do), or
          // unevenly, one more from the third column on (an output row's end).
          auto at = [&](std::int64_t p, int j) {
            const std::int64_t jumps = p < run_left ? 0 : 1 + (p - run_left) / run;
            return std::int64_t(37 * j + 3) + (spacing == 2 && j >= 2 ? 1 : 0) + p + skip * jumps;
          };
          ASSERT_LT(at(std::max<std::int64_t>(k - 1, 0), cols - 1), std::int64_t(image.size()));
          const T* columns[kernel::cpu::max_nr];
          for (int j = 0; j < cols; ++j) columns[j] = image.data() + at(0, j);
          const std::int64_t ldc = rows + 2;
          const auto c0 = random_vector<T>(std::size_t(ldc * cols), 23);
          auto c = poisoned_c(c0, ldc, rows, cols, beta);
          set.patch_kernel(vectors, cols)(k, a.data(), width, columns, spacing == 0 ? 37 : 0, run_left, run, skip,
                                          c.data(), ldc, T(alpha), T(beta), last_rows, a.data(), 1);
          expect_tile(c, c0, ldc, rows, cols, k, a, width,
                      [&](std::int64_t p, std::int64_t j) { return image[std::size_t(at(p, int(j)))]; }, alpha, beta);
        }
}

// The patch-row kernels (float only): every (vectors, column step) the set has, rows of one tile, of one more
// column (the last tile overlaps the first), of a prime number of columns and of whole tiles; window rows of 1
// and 3, runs of 1, 9 and 14 values; partial last vectors; no epilogue, bias, residual (in a tensor of its own or
// in C itself) and ReLU; C's padding rows poisoned and untouched. `checked`: how many kernels it checked.
void check_patch_row_set(const MicroKernels<float>& set, int& checked) {
  const auto& blk = set.blocking;
  const int lanes = blk.lanes;
  checked = 0;
  for (int vectors = 1; vectors <= kernel::cpu::max_row_vectors; ++vectors) {
    const int nr = blk.patch_row_nr[vectors - 1];
    for (int step = 1; step <= kernel::cpu::max_row_step; ++step) {
      const auto row_kernel = set.patch_row_kernel(vectors, step);
      if (!row_kernel) continue;
      ++checked;
      EXPECT_GE(nr, 1);
      for (std::int64_t cols : {std::int64_t(nr), std::int64_t(nr) + 1, std::int64_t(2 * nr + 3), std::int64_t(3 * nr)})
        for (auto [window_rows, run] : {std::array<std::int64_t, 2>{1, 1}, {3, 9}, {2, 14}})
          for (int variant = 0; variant < 4; ++variant) {   // none; bias + ReLU; residual; residual in C + bias + ReLU
            const int last_rows = variant % 2 ? lanes : 1 + (int(cols) + step + variant) % lanes;
            const bool bias_on = variant % 2 == 1, relu = variant % 2 == 1, residual_on = variant >= 2;
            const bool residual_in_c = variant == 3;
            SCOPED_TRACE("vectors=" + std::to_string(vectors) + " step=" + std::to_string(step) +
                         " cols=" + std::to_string(cols) + " window_rows=" + std::to_string(window_rows) +
                         " run=" + std::to_string(run) + " variant=" + std::to_string(variant));
            const int rows = (vectors - 1) * lanes + last_rows, width = vectors * lanes;
            const std::int64_t k = window_rows * run;
            auto a = random_vector<float>(std::size_t(width * k), 31);
            for (std::int64_t p = 0; p < k; ++p)
              for (int i = rows; i < width; ++i) a[std::size_t(p * width + i)] = 0.f;
            // Window row r of column j starts at j * step + r * row_step: rows of the image as long as the
            // columns reach and a few more values.
            const std::int64_t row_step = (cols - 1) * step + run + 5;
            const auto image = random_vector<float>(std::size_t(row_step * window_rows), 32);
            const auto bias = random_vector<float>(std::size_t(width), 33);
            const std::int64_t ldc = rows + 3;
            const auto residual = random_vector<float>(std::size_t(ldc * cols), 34);
            std::vector<float> c(std::size_t(ldc * cols), poison<float>);
            for (std::int64_t j = 0; j < cols; ++j)
              for (int i = 0; i < rows; ++i)
                c[std::size_t(j * ldc + i)] = residual_in_c ? residual[std::size_t(j * ldc + i)] : poison<float>;
            row_kernel(cols, a.data(), image.data(), window_rows, run, row_step, c.data(), ldc, last_rows,
                       bias_on ? bias.data() : nullptr,
                       residual_in_c ? c.data() : residual_on ? residual.data() : nullptr, relu);
            const double eps = std::numeric_limits<float>::epsilon();
            for (std::int64_t j = 0; j < cols; ++j)
              for (std::int64_t i = 0; i < ldc; ++i) {
                const float got = c[std::size_t(j * ldc + i)];
                if (i >= rows) {
                  ASSERT_TRUE(std::isnan(got)) << "C's padding written at (" << i << ", " << j << ")";
                  continue;
                }
                double sum = 0, magnitude = 0;
                for (std::int64_t r = 0; r < window_rows; ++r)
                  for (std::int64_t q = 0; q < run; ++q) {
                    const double x = a[std::size_t((r * run + q) * width + i)];
                    const double y = image[std::size_t(j * step + r * row_step + q)];
                    sum += x * y;
                    magnitude += std::abs(x * y);
                  }
                if (residual_on) {
                  sum += residual[std::size_t(j * ldc + i)];
                  magnitude += std::abs(residual[std::size_t(j * ldc + i)]);
                }
                if (bias_on) sum += bias[std::size_t(i)], magnitude += std::abs(bias[std::size_t(i)]);
                if (relu) sum = std::max(sum, 0.0);
                ASSERT_LE(std::abs(double(got) - sum), 4 * eps * double(k + 2) * magnitude + 1e-30)
                    << "at (" << i << ", " << j << ")";
              }
          }
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
TEST_P(MicroKernelsOfEachIsa, FloatPatchesMatchReference) {
  check_patch_set(*kernel::cpu::microkernels<float>(GetParam().cpu_isa));
}
TEST_P(MicroKernelsOfEachIsa, DoublePatchesMatchReference) {
  check_patch_set(*kernel::cpu::microkernels<double>(GetParam().cpu_isa));
}
// The AVX-512 set has patch-row kernels for 1- and 3-channel images at strides 1 and 2 (the first layers'); the
// other sets may have none (their convolutions take the patch kernels).
TEST_P(MicroKernelsOfEachIsa, FloatPatchRowsMatchReference) {
  int checked = 0;
  check_patch_row_set(*kernel::cpu::microkernels<float>(GetParam().cpu_isa), checked);
  if (GetParam().cpu_isa == CpuIsa::avx512) EXPECT_GE(checked, 2 * 4);
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
  for (int vectors = 1; vectors <= blk.vectors; ++vectors) {
    EXPECT_GE(blk.patch_nr[vectors - 1], blk.nr);
    EXPECT_LE(blk.patch_nr[vectors - 1], kernel::cpu::max_nr);
    for (int cols = 1; cols <= blk.patch_nr[vectors - 1]; ++cols) EXPECT_NE(set->patch_kernel(vectors, cols), nullptr);
  }
}

INSTANTIATE_TEST_SUITE_P(Executable, MicroKernelsOfEachIsa, ::testing::ValuesIn(executable_cpu_classes()),
                         [](const ::testing::TestParamInfo<DeviceClass>& info) {
                           return std::string(cpu_isa_name(info.param.cpu_isa));
                         });

}  // namespace
}  // namespace portkern::testing
