// Precisions (portkern/precision.hpp): the names and what each allows; every deployment of every device class
// picks only configurations its precision allows (the GPU classes too: their lists are compiled in); a forced
// configuration of an arithmetic the precision does not allow is an Error naming both; and on the CPU, whose
// kernels compute IEEE products, every precision runs the test bed through the public API.
#include "gemm_cases.hpp"
#include "portkern/runtime/device_class.hpp"

namespace portkern::testing {
namespace {

TEST(Precision, NamesRoundTripAndUnknownOnesAreRejected) {
  for (Precision p : precisions) EXPECT_EQ(parse_precision(name(p)), p);
  EXPECT_FALSE(parse_precision("fp32").has_value());
  EXPECT_FALSE(parse_precision("").has_value());
}

TEST(Precision, EachAllowsWhatItGuarantees) {
  EXPECT_TRUE(allows(Precision::ieee, Arithmetic::ieee));
  EXPECT_FALSE(allows(Precision::ieee, Arithmetic::tf32x3));
  EXPECT_FALSE(allows(Precision::ieee, Arithmetic::tf32));
  EXPECT_TRUE(allows(Precision::accurate, Arithmetic::ieee));
  EXPECT_TRUE(allows(Precision::accurate, Arithmetic::tf32x3));
  EXPECT_FALSE(allows(Precision::accurate, Arithmetic::tf32));
  for (Arithmetic a : {Arithmetic::ieee, Arithmetic::tf32x3, Arithmetic::tf32}) EXPECT_TRUE(allows(Precision::tf32, a));
}

TEST(Precision, ConfigurationsNameTheirArithmetic) {
  EXPECT_EQ(gemm_arithmetic("tiled/r8a1c4_wg8x16_staged_k32_s2_x3"), Arithmetic::tf32x3);
  EXPECT_EQ(gemm_arithmetic("tiled/r8a1c4_wg8x16_staged_k32_s2_tf32", Precision::tf32), Arithmetic::tf32);
  EXPECT_EQ(gemm_arithmetic("tiled/r4a1c4_wg16x8_staged_k16_s2"), Arithmetic::ieee);
  EXPECT_EQ(gemm_arithmetic("cpu_packed/default"), Arithmetic::ieee);
  EXPECT_PORTKERN_ERROR(gemm_arithmetic("tiled/r3a1c4_wg8x16_staged_k32_s2"), "unknown configuration");
}

// Every configuration of every class's deployment for each precision is one that precision allows, and the
// deployment found for a precision is the class's own for it or its default one. (A build without CUDA has no
// cuda_native family to ask: those are checked where the GPU tests are built.)
TEST(Precision, EveryDeploymentPicksOnlyWhatItsPrecisionAllows) {
#if PORTKERN_HAVE_CUDA
  const bool cuda_native_built = true;
#else
  const bool cuda_native_built = false;
#endif
  for (const DeviceClass& c : device_classes())
    for (Precision p : precisions) {
      const GemmDeployment d = gemm_deployment_of_class(std::string(c.name), p);
      EXPECT_TRUE(d.precision == p || d.precision == Precision::accurate) << c.name << " " << name(p);
      for (std::size_t f = 0; f < d.families.size(); ++f)
        for (const auto& config : d.configs[f])
          if (cuda_native_built || d.families[f] != "cuda_native")
            EXPECT_TRUE(allows(p, gemm_arithmetic(config, p)))
                << c.name << " at " << name(p) << " deploys " << config << " ("
                << name(gemm_arithmetic(config, p)) << ")";
    }
}

// A GPU deployment needs one of its own for ieee (its default one computes 3xTF32 where that pays).
TEST(Precision, GpuClassesHaveAnIeeeDeployment) {
  for (const DeviceClass& c : device_classes())
    if (c.backend == Backend::cuda)
      EXPECT_EQ(gemm_deployment_of_class(std::string(c.name), Precision::ieee).precision, Precision::ieee) << c.name;
}

TEST(Precision, ForcedConfigurationsMustComputeAsThePrecisionAllows) {
  const deploy::Problem p{64, 64, 64};
  EXPECT_EQ(gemm_not_applicable(Device::cpu(), p, "tiled", "tiled/r8a1c4_wg8x16_staged_k32_s2_x3", Precision::accurate), "");
  EXPECT_EQ(gemm_not_applicable(Device::cpu(), p, "tiled", "tiled/r8a1c4_wg8x16_staged_k32_s2_x3", Precision::ieee),
            "configuration 'tiled/r8a1c4_wg8x16_staged_k32_s2_x3' computes with tf32x3 arithmetic, which precision "
            "'ieee' does not allow");
  EXPECT_NE(gemm_not_applicable(Device::cpu(), p, "tiled", "tiled/r8a1c4_wg8x16_staged_k32_s2_tf32", Precision::accurate)
                .find("computes with tf32 arithmetic, which precision 'accurate' does not allow"),
            std::string::npos);
  Queue q;
  const std::vector<float> a(4, 1.f), b(4, 1.f);
  std::vector<float> c(4, poison<float>);
  const GemmChoice forced{"tiled", "tiled/r8a1c4_wg8x16_staged_k32_s2_x3", Precision::ieee};
  EXPECT_PORTKERN_ERROR(gemm<float>(q, Op::none, Op::none, 2, 2, 2, 1.f, a.data(), 2, b.data(), 2, 0.f, c.data(), 2, forced),
                        "which precision 'ieee' does not allow");
  for (float v : c) EXPECT_TRUE(std::isnan(v));   // nothing written
}

// The CPU computes IEEE products at every precision: the deployment's pick and the test bed's cases.
TEST(Precision, CpuRunsEveryPrecision) {
  for (Precision p : precisions) {
    EXPECT_EQ(gemm_arithmetic(select_gemm(Device::cpu(), {300, 200, 100}, "", p).config, p), Arithmetic::ieee);
    for (const auto& c : gemm_cases()) check_gemm<float>(Device::cpu(), c, {"", "", p});
    check_gemm<double>(Device::cpu(), {true, false, 37, 41, 103, 1.5, -0.5}, {"", "", p});
  }
}

}  // namespace
}  // namespace portkern::testing
