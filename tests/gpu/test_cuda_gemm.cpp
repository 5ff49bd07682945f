// GEMM on a GPU: every deployed family and configuration against the float64 reference, and memory of the
// wrong device.
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

// Listed without a GPU too (the deployment is compiled in), so that the tests exist and report as skipped.
std::vector<GemmChoice> cuda_choices() {
  std::vector<GemmChoice> choices;
  const GemmDeployment d = gemm_deployment_of_class("cuda-sm90");
  for (std::size_t f = 0; f < d.families.size(); ++f)
    for (const auto& config : d.configs[f]) choices.push_back({d.families[f], config});
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
