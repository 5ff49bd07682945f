// GEMM on the CPU: every deployed family and configuration against the float64 reference, the argument
// checks, quick returns, and 64-bit index arithmetic.
#include <sys/mman.h>

#include <set>

#include "gemm/fused.hpp"
#include "gemm/tiled/ladder.hpp"
#include "gemm/tiled/staged.hpp"
#include "gemm_cases.hpp"
#include "portkern/runtime/device_class.hpp"

namespace portkern::testing {
namespace {

class GemmCpu : public ::testing::TestWithParam<GemmChoice> {};

TEST_P(GemmCpu, FloatMatchesReference) {
  for (const auto& c : gemm_cases()) check_gemm<float>(Device::cpu(), c, GetParam());
}
TEST_P(GemmCpu, DoubleMatchesReference) {
  for (const auto& c : gemm_cases()) check_gemm<double>(Device::cpu(), c, GetParam());
}

INSTANTIATE_TEST_SUITE_P(Deployed, GemmCpu, ::testing::ValuesIn(deployed_choices(Device::cpu())), ConfigName());

TEST(GemmCpuApi, DeploymentChoosesWithoutForce) {
  check_gemm<float>(Device::cpu(), {false, true, 67, 45, 33, 1.0, 0.0, 2, 2}, {});
  check_gemm<double>(Device::cpu(), {true, false, 5, 300, 700, 2.0, -1.0}, {});
}

// A queue's GEMM family holds for every GEMM on it that does not force one; an unknown family is an error
// naming it, raised by the first GEMM.
TEST(GemmCpuApi, QueueGemmFamilyRestrictsTheChoice) {
  Queue q;
  q.set_gemm_family("tiled");
  EXPECT_EQ(q.gemm_family(), "tiled");
  const std::vector<float> a(6, 1.f), b(6, 2.f);
  std::vector<float> c(4, poison<float>);
  gemm<float>(q, Op::none, Op::none, 2, 2, 3, 1.f, a.data(), 2, b.data(), 3, 0.f, c.data(), 2);
  for (float v : c) EXPECT_EQ(v, 6.f);
  q.set_gemm_family("no_such_family");
  EXPECT_PORTKERN_ERROR(gemm<float>(q, Op::none, Op::none, 2, 2, 3, 1.f, a.data(), 2, b.data(), 3, 0.f, c.data(), 2),
                        "family 'no_such_family' is not deployed");
  Queue moved(std::move(q));
  EXPECT_EQ(moved.gemm_family(), "no_such_family");   // moves with the queue
}

// The CPU's fragments keep B's packed tiles for the groups of one launch: a second call on the same buffers,
// with B changed in between, must see the new B.
TEST(GemmCpuApi, StagedFragmentsSeeNewOperandsOnEveryCall) {
  Queue q;
  const GemmChoice staged{"tiled", std::string(gemm_impl::ladder_steps.back().cpu_config)};
  const std::int64_t n = 301;
  std::vector<float> a(n * n), b(n * n, 1.f), c(n * n);
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = float(i % 7) - 3.f;
  for (float scale : {1.f, 2.f}) {
    for (float& v : b) v = scale;
    gemm<float>(q, Op::none, Op::none, n, n, n, 1.f, a.data(), n, b.data(), n, 0.f, c.data(), n, staged);
    for (std::int64_t j = 0; j < n; j += 37)
      for (std::int64_t i = 0; i < n; i += 13) {
        double want = 0;
        for (std::int64_t l = 0; l < n; ++l) want += double(a[i + l * n]) * scale;
        ASSERT_EQ(c[i + j * n], float(want)) << "scale " << scale << " C(" << i << ", " << j << ")";
      }
  }
}

// The staged mode's split of k: over floor(resident groups / blocks) groups per block where the blocks alone
// are fewer than the device runs at once, each split at least 4 k-tiles deep, the splits covering k exactly.
TEST(GemmStagedPlan, SplitsKOnlyWhereBlocksLeaveTheDeviceIdle) {
  constexpr gemm_impl::TiledConfig config = gemm_impl::parse_tiled("tiled/r8a1c8_wg16x16_staged_k32_s3_x3");
  using Kernel = gemm_impl::GemmStaged<config, float, false, false>;   // 128 x 128 blocks, k-tiles of 32
  auto plan = [](std::int64_t m, std::int64_t n, std::int64_t k, std::int64_t batch, std::int64_t resident) {
    const gemm_impl::GemmArgs<float> args{m, n, k, 1.f, nullptr, m, 0, nullptr, k, 0, 0.f, nullptr, m, 0, batch};
    return Kernel::planned(args, resident);
  };
  const Kernel large = plan(4096, 4096, 4096, 1, 132);   // 1024 blocks: no split
  EXPECT_EQ(large.splits, 1);
  EXPECT_EQ(large.split_depth, 4096);
  EXPECT_FALSE(large.accumulates());
  const Kernel small = plan(784, 512, 4608, 1, 132);      // 28 blocks on 132: 4 splits of 36 tiles
  EXPECT_EQ(small.splits, 4);
  EXPECT_EQ(small.split_depth, 1152);
  EXPECT_TRUE(small.accumulates());
  EXPECT_EQ(small.groups(small.args).z, 4);
  const Kernel batched = plan(784, 512, 4608, 2, 132);    // the batch counts as blocks: 2 splits
  EXPECT_EQ(batched.splits, 2);
  EXPECT_EQ(batched.groups(batched.args).z, 4);
  const Kernel shallow = plan(37, 41, 200, 1, 132);       // 7 tiles: too few for two splits of 4
  EXPECT_EQ(shallow.splits, 1);
  const Kernel ragged = plan(37, 41, 4099, 1, 2);         // two threads: 2 splits; the last one shorter
  EXPECT_EQ(ragged.splits, 2);
  EXPECT_EQ(ragged.split_depth % 32, 0);
  EXPECT_GE(ragged.splits * ragged.split_depth, 4099);
  EXPECT_LT((ragged.splits - 1) * ragged.split_depth, 4099);
}

// The epilogue a convolution asks of its GEMM (gemm/fused.hpp): c = relu?(alpha A B + beta C + residual + bias),
// fused by cpu_packed into each tile (every path: blocked, in-place operands, k split over threads, GEMV, k == 0)
// and left to the caller by the families that do not fuse it, whose C is then the plain product.
TEST(GemmCpuApi, EpilogueIsFusedWhereTheFamilySaysSo) {
  struct Shape {
    std::int64_t m, n, k;
  };
  // 1 x 1 and GEMVs, primes across tile edges, small m and n with a deep k (split over the threads), wide n.
  const Shape shapes[] = {{1, 1, 1}, {1, 37, 61}, {53, 1, 97}, {67, 45, 33}, {131, 7, 509}, {13, 11, 4099},
                          {64, 6, 512}, {257, 301, 0}, {5, 700, 19}, {67, 45, 3001}};
  for (int threads : {1, 2})   // one thread: k in several blocks; two: k split where m and n are small
  for (const char* config : {"cpu_packed/default", "tiled/r4a1c4_wg16x16_global"})
    for (const Shape& s : shapes)
      for (int mask = 0; mask < 8; ++mask) {
        const bool bias_on = mask & 1, residual_on = mask & 2, relu = mask & 4;
        const float beta = mask % 3 == 0 ? 0.5f : 0.f;
        Queue q(Device::cpu(), threads);
        SCOPED_TRACE(std::string(config) + " threads=" + std::to_string(threads) + " m=" + std::to_string(s.m) + " n=" + std::to_string(s.n) +
                     " k=" + std::to_string(s.k) + " mask=" + std::to_string(mask));
        const std::int64_t ldc = s.m + 3;
        const auto a = random_vector<float>(std::size_t(std::max<std::int64_t>(1, s.m * s.k)), 1);
        const auto b = random_vector<float>(std::size_t(std::max<std::int64_t>(1, s.k * s.n)), 2);
        const auto bias = random_vector<float>(std::size_t(s.m), 3);
        const auto residual = random_vector<float>(std::size_t(ldc * s.n), 4);
        auto c = random_vector<float>(std::size_t(ldc * s.n), 5);
        const auto c0 = c;
        poison_unread(c, s.m, s.n, ldc, beta != 0.f);
        const gemm_impl::GemmEpilogue<float> epilogue{bias_on ? bias.data() : nullptr,
                                                      residual_on ? residual.data() : nullptr, relu};
        const bool fused = gemm_impl::gemm_with_epilogue(q, Op::none, Op::none, s.m, s.n, s.k, 1.25f, a.data(),
                                                         s.m, b.data(), std::max<std::int64_t>(1, s.k), beta,
                                                         c.data(), ldc, epilogue, {"", config});
        EXPECT_EQ(fused, s.k != 0 && std::string(config).starts_with("cpu_packed"));   // k == 0: only scales C
        for (std::int64_t j = 0; j < s.n; ++j)
          for (std::int64_t i = 0; i < ldc; ++i) {
            const float got = c[std::size_t(j * ldc + i)];
            if (i >= s.m) {
              ASSERT_TRUE(std::isnan(got)) << "C's padding written at (" << i << ", " << j << ")";
              continue;
            }
            double sum = 0, magnitude = 0;
            for (std::int64_t p = 0; p < s.k; ++p) {
              const double x = double(a[std::size_t(p * s.m + i)]) * b[std::size_t(j * s.k + p)];
              sum += x, magnitude += std::abs(x);
            }
            const double old = beta == 0.f ? 0.0 : double(c0[std::size_t(j * ldc + i)]);
            double want = 1.25 * sum + double(beta) * old;
            if (fused) {
              if (residual_on) want += residual[std::size_t(j * ldc + i)];
              if (bias_on) want += bias[std::size_t(i)];
              if (relu) want = std::max(want, 0.0);
            }
            const double bound = 1e-6 * (1.25 * magnitude + 3.0) + 1e-30;
            ASSERT_LE(std::abs(double(got) - want), bound) << "at (" << i << ", " << j << ")";
          }
      }
}

TEST(GemmCpuApi, ZeroKAndZeroAlphaScaleC) {
  check_gemm<float>(Device::cpu(), {false, false, 37, 11, 0, 1.0, 0.5, 1, 2}, {});
  check_gemm<float>(Device::cpu(), {false, false, 37, 11, 0, 1.0, 0.0}, {});   // NaN in C becomes 0
  check_gemm<double>(Device::cpu(), {true, true, 9, 8, 7, 0.0, -2.0}, {});
}

TEST(GemmCpuApi, RowMajorIsTheTransposedProduct) {
  Queue q;
  // Row-major 2x3 * 3x2: [[1,2,3],[4,5,6]] * [[1,0],[0,1],[1,1]] = [[4,5],[10,11]].
  const float a[] = {1, 2, 3, 4, 5, 6}, b[] = {1, 0, 0, 1, 1, 1};
  float c[4] = {-1, -1, -1, -1};
  gemm<float>(q, Layout::row_major, Op::none, Op::none, 2, 2, 3, 1.f, a, 3, b, 2, 0.f, c, 2);
  EXPECT_EQ(std::vector<float>(c, c + 4), (std::vector<float>{4, 5, 10, 11}));
}

TEST(GemmCpuApi, BadArgumentsAreErrors) {
  Queue q;
  std::vector<float> a(100, 1), b(100, 1), c(100, 1);
  auto call = [&](std::int64_t m, std::int64_t n, std::int64_t k, std::int64_t lda, std::int64_t ldb, std::int64_t ldc,
                  Op ta = Op::none) {
    gemm<float>(q, ta, Op::none, m, n, k, 1.f, a.data(), lda, b.data(), ldb, 0.f, c.data(), ldc);
  };
  EXPECT_PORTKERN_ERROR(call(-1, 2, 2, 2, 2, 2), "argument m = -1 must be >= 0");
  EXPECT_PORTKERN_ERROR(call(2, -3, 2, 2, 2, 2), "argument n = -3");
  EXPECT_PORTKERN_ERROR(call(2, 2, -4, 2, 2, 2), "argument k = -4");
  EXPECT_PORTKERN_ERROR(call(5, 2, 2, 3, 2, 5), "argument lda = 3 must be >= max(1, m) = 5");
  EXPECT_PORTKERN_ERROR(call(2, 2, 6, 6, 2, 2, Op::trans), "argument lda = 6 must be >= max(1, k) = 6" ? "argument ldb = 2 must be >= max(1, k) = 6" : "");
  EXPECT_PORTKERN_ERROR(call(2, 2, 6, 6, 2, 2), "argument lda = 6 must be >= max(1, m)" ? "argument ldb = 2 must be >= max(1, k) = 6" : "");
  EXPECT_PORTKERN_ERROR(call(4, 2, 2, 4, 2, 3), "argument ldc = 3 must be >= max(1, m) = 4");
  EXPECT_PORTKERN_ERROR(gemm<float>(q, Op::none, Op::none, 2, 2, 2, 1.f, nullptr, 2, b.data(), 2, 0.f, c.data(), 2), "argument a = nullptr");
  EXPECT_PORTKERN_ERROR(gemm<float>(q, Op::none, Op::none, 2, 2, 2, 1.f, a.data(), 2, b.data(), 2, 0.f, nullptr, 2), "argument c = nullptr");
  EXPECT_PORTKERN_ERROR(gemm_strided_batched<float>(q, Op::none, Op::none, 2, 2, 2, 1.f, a.data(), 2, 4, b.data(), 2, 4, 0.f, c.data(), 2, 3, 2),
                        "argument stride_c = 3 must be >= ldc * n");
  EXPECT_PORTKERN_ERROR(gemm<float>(q, Op::none, Op::none, 2, 2, 2, 1.f, a.data(), 2, b.data(), 2, 0.f, c.data(), 2, {"cuda_native", ""}),
                        "family 'cuda_native' is not deployed for " + gemm_device_class(Device::cpu()));
  EXPECT_PORTKERN_ERROR(gemm<float>(q, Op::none, Op::none, 2, 2, 2, 1.f, a.data(), 2, b.data(), 2, 0.f, c.data(), 2, {"", "tiled/r8a8c8_wg128x1_localdb_k16_v4"}),
                        "not instantiated");
  // Empty problems return at once, whatever the pointers.
  gemm<float>(q, Op::none, Op::none, 0, 5, 5, 1.f, nullptr, 1, nullptr, 5, 0.f, nullptr, 1);
  gemm<float>(q, Op::none, Op::none, 5, 0, 5, 1.f, nullptr, 5, nullptr, 5, 0.f, nullptr, 5);
}

// A forced family or configuration outside the registry is an error listing the registry's names.
TEST(GemmCpuApi, UnknownNamesAreErrorsListingTheKnownOnes) {
  Queue q;
  std::vector<float> a(4, 1), b(4, 1), c(4, 1);
  auto call = [&](const GemmChoice& force) {
    gemm<float>(q, Op::none, Op::none, 2, 2, 2, 1.f, a.data(), 2, b.data(), 2, 0.f, c.data(), 2, force);
  };
  EXPECT_PORTKERN_ERROR(call({"", "cpu_packed/nosuch"}), "unknown configuration 'cpu_packed/nosuch' (one of cpu_packed/default)");
  EXPECT_PORTKERN_ERROR(call({"", "cpu_packed/anything"}), "unknown configuration 'cpu_packed/anything'");
  EXPECT_PORTKERN_ERROR(call({"", "tiled/r3a1c1_wg16x16_global"}),
                        "unknown configuration 'tiled/r3a1c1_wg16x16_global' (one of tiled/r1a1c1_wg1x64_global, ");
  std::string on_cpu;   // the registry's CPU families, in its order (those of other back ends may follow)
  std::size_t tiled_size = 0;
  for (const GemmFamily& f : gemm_families(Device::cpu())) {
    on_cpu += (on_cpu.empty() ? "" : ", ") + f.name;
    if (f.name == "tiled") tiled_size = f.space.size();
  }
  EXPECT_PORTKERN_ERROR(call({"", "tiled/nosuch"}), "(" + std::to_string(tiled_size) + " in all)");
  EXPECT_PORTKERN_ERROR(call({"", "nosuch/x"}), "unknown family 'nosuch' (one of " + on_cpu);
  EXPECT_PORTKERN_ERROR(call({"tiled", "cpu_packed/default"}), "configuration 'cpu_packed/default' is not one of family 'tiled'");
  EXPECT_PORTKERN_ERROR(call({"nosuch", ""}), "family 'nosuch' is not deployed for " + gemm_device_class(Device::cpu()));
  EXPECT_PORTKERN_ERROR(call({"nosuch", ""}), "(one of cpu_packed, tiled)");
  call({"", "cpu_packed/default"});
  EXPECT_EQ(c, (std::vector<float>{2, 2, 2, 2}));
}

// The registry owns each family's space: names are unique and carry the family's prefix, and every
// configuration that any device class's deployment ships is one of its family's space (a deployment picks).
TEST(GemmRegistry, DeploymentsPickFromTheFamiliesSpaces) {
  const std::vector<GemmFamily> families = gemm_families(Device::cpu());
  ASSERT_FALSE(families.empty());
  for (const GemmFamily& f : families) {
    std::set<std::string> names(f.space.begin(), f.space.end());
    EXPECT_EQ(names.size(), f.space.size()) << f.name;
    for (const auto& n : f.space) EXPECT_TRUE(n.starts_with(f.name + "/")) << n;
    EXPECT_FALSE(f.tuning_part.empty()) << f.name;
    for (const auto& n : f.tuning_part) EXPECT_TRUE(names.contains(n)) << n;
  }
  for (const DeviceClass& dc : device_classes()) {
    if (dc.backend != Backend::cpu) continue;
    const GemmDeployment d = gemm_deployment_of_class(std::string(dc.name));
    for (std::size_t i = 0; i < d.families.size(); ++i)
      for (const auto& config : d.configs[i])
        EXPECT_EQ(gemm_not_applicable(Device::cpu(), {64, 64, 64, 1, false, false}, d.families[i], config), "")
            << dc.name << ": " << config;
  }
}

// lda beyond 2^31: A's second column starts 2^31 + 5 elements after the first. Only the touched pages of the
// 16 GiB reservation become memory.
TEST(GemmCpuApi, IndexArithmeticIs64Bit) {
  const std::int64_t lda = (std::int64_t(1) << 31) + 5, m = 3, k = 2, n = 2;
  const std::size_t bytes = std::size_t(lda * k) * sizeof(float);
  void* memory = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (memory == MAP_FAILED) GTEST_SKIP() << "cannot reserve 16 GiB of address space";
  auto* a = static_cast<float*>(memory);
  for (int i = 0; i < m; ++i) a[i] = float(i + 1), a[lda + i] = float(10 * (i + 1));
  const float b[] = {1, 2, 3, 4};   // 2 x 2
  Queue q;
  for (const auto& choice : deployed_choices(Device::cpu())) {
    float c[6] = {0};
    gemm<float>(q, Op::none, Op::none, m, n, k, 1.f, a, lda, b, 2, 0.f, c, 3, choice);
    for (int i = 0; i < m; ++i) {
      EXPECT_EQ(c[i], float((i + 1) * 1 + 10 * (i + 1) * 2)) << choice.config;
      EXPECT_EQ(c[3 + i], float((i + 1) * 3 + 10 * (i + 1) * 4)) << choice.config;
    }
  }
  munmap(memory, bytes);
}

}  // namespace
}  // namespace portkern::testing
