// GEMM on a GPU: every deployed family and configuration against the float64 reference, and memory of the
// wrong device.
#include <cfloat>
#include <cmath>
#include <cstdlib>

#include "gemm/tiled/ladder.hpp"
#include "gemm/tiled/tiled_config.hpp"
#include "gemm_cases.hpp"

namespace portkern::testing {
namespace {

class GemmCuda : public ::testing::TestWithParam<GemmChoice> {};

TEST_P(GemmCuda, FloatMatchesReference) {
  PORTKERN_REQUIRE_GPU();
  for (const auto& c : gemm_cases()) check_gemm<float>(Device::cuda(0), c, GetParam());
}
TEST_P(GemmCuda, DoubleMatchesReference) {
  PORTKERN_REQUIRE_GPU();
  for (const auto& c : gemm_cases()) check_gemm<double>(Device::cuda(0), c, GetParam());
}

// IEEE special values come through every kernel as they would through a float64 product: a row of A with an
// Inf gives Inf (B is positive), a row with a NaN gives NaN, and a row holding FLT_MAX stays finite. The
// documented exceptions, the tensor-core arithmetics (3xTF32: cuda_native/tf32x3 and the tiled family's "_x3"
// fragments, each operand split into two tf32 parts, Inf - Inf is NaN; TF32: "_tf32" fragments): FLT_MAX
// rounds to Inf, so there an Inf must come out non-finite, never silently finite, and the large row holds
// 1e38; TF32's finite results are within 2^-10 of the sum of magnitudes.
TEST_P(GemmCuda, IeeeSpecialValuesPropagate) {
  PORTKERN_REQUIRE_GPU();
  const Arithmetic arithmetic = gemm_arithmetic(GetParam().config, GetParam().precision);
  const bool tf32x3 = arithmetic != Arithmetic::ieee;
  const double tolerance = arithmetic == Arithmetic::tf32 ? 0x1p-10 : 1e-5;   // all products are positive
  const std::int64_t m = 70, n = 40, k = 33;
  Queue q(Device::cuda(0));
  auto a = random_vector<float>(std::size_t(m * k), 11), b = random_vector<float>(std::size_t(k * n), 12);
  for (auto& x : a) x = std::abs(x);
  for (auto& x : b) x = std::abs(x) * 0.25f;
  a[3 + 5 * m] = INFINITY;
  a[7 + 2 * m] = NAN;
  a[11 + 0 * m] = tf32x3 ? 1e38f : FLT_MAX;
  Buffer<float> da(q.device(), m * k), db(q.device(), k * n), dc(q.device(), m * n);
  da.upload(q, a);
  db.upload(q, b);
  q.fill(dc.data(), 1.f, dc.size());
  gemm<float>(q, Op::none, Op::none, m, n, k, 1.f, da.data(), m, db.data(), k, 0.f, dc.data(), m, GetParam());
  const auto c = dc.download(q);
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < m; ++i) {
      double want = 0;
      for (std::int64_t l = 0; l < k; ++l) want += double(a[i + l * m]) * double(b[l + j * k]);
      const float got = c[i + j * m];
      if (std::isnan(want)) {
        ASSERT_TRUE(std::isnan(got)) << "C(" << i << ", " << j << ") = " << got << ", want NaN";
      } else if (std::isinf(want)) {
        if (tf32x3) ASSERT_FALSE(std::isfinite(got)) << "C(" << i << ", " << j << ") = " << got;
        else ASSERT_EQ(got, float(want)) << "C(" << i << ", " << j << ")";
      } else {
        ASSERT_NEAR(got, want, tolerance * std::abs(want)) << "C(" << i << ", " << j << ")";
      }
    }
}

// Listed without a GPU too (the deployment is compiled in), so that the tests exist and report as skipped.
std::vector<GemmChoice> cuda_choices() {
  std::vector<GemmChoice> choices = deployed_choices_of_class("cuda-sm90");
  for (const auto& step : gemm_impl::ladder_steps)   // the kernel model's fragments on CUDA (the ladder's staged step)
    if (gemm_impl::parse_tiled(step.cuda_config).memory == gemm_impl::TiledMemory::staged &&
        std::none_of(choices.begin(), choices.end(), [&](const GemmChoice& c) { return c.config == step.cuda_config; }))
      choices.push_back({"tiled", std::string(step.cuda_config)});
  return choices;
}

INSTANTIATE_TEST_SUITE_P(Deployed, GemmCuda, ::testing::ValuesIn(cuda_choices()), ConfigName());

TEST(GemmCudaApi, DeploymentChoosesWithoutForce) {
  PORTKERN_REQUIRE_GPU();
  check_gemm<float>(Device::cuda(0), {false, true, 67, 45, 33, 1.0, 0.0, 2, 2}, {});
  check_gemm<float>(Device::cuda(0), {false, false, 32, 27, 12321, 1.0, 0.0}, {});   // split-K territory
  check_gemm<float>(Device::cuda(0), {true, false, 300, 257, 129, -1.0, 0.5, 0, 3}, {});
  check_gemm<float>(Device::cuda(0), {false, false, 37, 11, 0, 1.0, 0.5, 1, 2}, {});   // k == 0
}

// At every precision the deployment's picks run the test bed and compute as the precision allows: no tensor
// cores at ieee (cuda_native/auto keeps off them too), TF32 fragments allowed at tf32 (and its looser bound).
TEST(GemmCudaApi, EveryPrecisionChoosesWhatItAllows) {
  PORTKERN_REQUIRE_GPU();
  const Device gpu = Device::cuda(0);
  for (Precision p : precisions) {
    for (const auto& c : gemm_cases()) check_gemm<float>(gpu, c, {"", "", p});
    for (std::int64_t size : {64, 300, 1024, 4096}) {
      const GemmSelection s = select_gemm(gpu, {size, size, size}, "", p);
      EXPECT_TRUE(allows(p, gemm_arithmetic(s.config, p))) << s.config << " at " << name(p);
    }
    // Matrix-vector products are memory-bound: the default deployment's pick wherever the precision allows it.
    for (const deploy::Problem v : {deploy::Problem{4096, 1, 25088, 1, true, false}, {1, 1000, 2048}}) {
      const GemmSelection s = select_gemm(gpu, v, "", p), d = select_gemm(gpu, v);
      if (allows(p, gemm_arithmetic(d.config, p))) EXPECT_EQ(s.config, d.config) << name(p);
    }
  }
}

// The device class is chosen at run time from the GPU's compute capability (sm_90: cuda-sm90), and a GPU without
// a class of its own gets cuda-generic, whose deployment runs the same test bed (forced here).
TEST(GemmCudaApi, DeviceClassIsChosenAtRunTimeAndGenericServesAnyGpu) {
  PORTKERN_REQUIRE_GPU();
  const Device gpu = Device::cuda(0);
  if (!std::getenv("PORTKERN_CUDA_CLASS"))
    EXPECT_EQ(gemm_device_class(gpu), gpu.properties().arch == "sm_90" ? "cuda-sm90" : "cuda-generic");
  force_device_class(Backend::cuda, "cuda-generic");
  EXPECT_EQ(select_gemm(gpu, {300, 257, 129}).device_class, "cuda-generic");
  check_gemm<float>(gpu, {false, true, 67, 45, 33, 1.0, 0.0, 2, 2}, {});
  check_gemm<double>(gpu, {true, false, 300, 257, 129, -1.0, 0.5, 0, 3}, {});
  for (const auto& choice : deployed_choices(gpu))
    for (const auto& c : gemm_cases()) check_gemm<float>(gpu, c, choice);
  force_device_class(Backend::cuda, "");
}

TEST(GemmCudaApi, WrongDeviceMemoryIsAnError) {
  PORTKERN_REQUIRE_GPU();
  Queue gpu(Device::cuda(0));
  Buffer<float> a(gpu.device(), 16), b(gpu.device(), 16);
  std::vector<float> host(16, 1);
  EXPECT_PORTKERN_ERROR(gemm<float>(gpu, Op::none, Op::none, 4, 4, 4, 1.f, a.data(), 4, b.data(), 4, 0.f, host.data(), 4),
                        "argument c is host memory");
  Queue cpu;
  EXPECT_PORTKERN_ERROR(gemm<float>(cpu, Op::none, Op::none, 4, 4, 4, 1.f, a.data(), 4, host.data(), 4, 0.f, host.data(), 4),
                        "argument a is memory of cuda:0");
}

}  // namespace
}  // namespace portkern::testing
