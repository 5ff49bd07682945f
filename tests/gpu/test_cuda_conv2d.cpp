// The convolution and pooling on a GPU: every algorithm and every instantiated configuration against the
// float64 reference (the CPU tests' test bed), pre-transformed Winograd weights, pooling, wrong-device memory.
#include "conv2d_cases.hpp"

namespace portkern::testing {
namespace {

class Conv2dCuda : public ::testing::TestWithParam<Conv2dChoice> {};

TEST_P(Conv2dCuda, MatchesReference) {
  PORTKERN_REQUIRE_GPU();
  check_all_cases(Device::cuda(0), GetParam());
}

// The GPU's instantiated configurations (some algorithms instantiate other ones per back end); listed without
// a GPU too, as the CPU's, so that the tests exist and report as skipped.
std::vector<Conv2dChoice> cuda_space() {
  return cuda_device_count() > 0 ? conv2d_space(Device::cuda(0)) : conv2d_space(Device::cpu());
}
INSTANTIATE_TEST_SUITE_P(Instantiated, Conv2dCuda, ::testing::ValuesIn(cuda_space()), ConfigName());

TEST(Conv2dCudaApi, RuleChoosesWithoutForce) {
  PORTKERN_REQUIRE_GPU();
  check_all_cases(Device::cuda(0), {});
}

// At every precision the rule's picks run and are ones it allows (ieee: the class's own deployment, no 3xTF32
// implicit configuration; tf32: the GEMMs inside on TF32 fragments, within TF32's bound).
TEST(Conv2dCudaApi, RuleChoosesAtEveryPrecision) {
  PORTKERN_REQUIRE_GPU();
  for (Precision p : precisions) {
    check_all_cases(Device::cuda(0), {"", "", p});
    for (const auto& x : conv_data()) {
      const Conv2dSelection s = conv2d_select(Device::cuda(0), x.d, p);
      EXPECT_TRUE(conv2d_supports(Device::cuda(0), x.d, {s.algorithm, s.config, p})) << s.config << " " << name(p);
    }
  }
}

TEST(Conv2dCudaApi, WinogradWithPretransformedFilter) {
  PORTKERN_REQUIRE_GPU();
  check_all_cases(Device::cuda(0), {"winograd", "winograd/f2"}, true);
  check_all_cases(Device::cuda(0), {"winograd", "winograd/f4"}, true);
}

// At tf32 Winograd keeps its GEMMs fp32-accurate: its outputs meet the accurate bound (with TF32 GEMMs F(4x4)
// was 1.3e-2 off on ResNet-50's layers).
TEST(Conv2dCudaApi, WinogradStaysAccurateAtTf32) {
  PORTKERN_REQUIRE_GPU();
  for (const char* config : {"winograd/f2", "winograd/f4"}) {
    check_all_cases(Device::cuda(0), {"winograd", config, Precision::tf32}, true);
    check_all_cases(Device::cuda(0), {"winograd", config, Precision::tf32});
  }
}

TEST(Pool2dCuda, MaxAndAverageMatchReference) {
  PORTKERN_REQUIRE_GPU();
  for (const auto& d : pool_cases()) {
    check_pool(Device::cuda(0), d, true);
    check_pool(Device::cuda(0), d, false);
  }
}

TEST(Conv2dCudaApi, WrongDeviceMemoryIsAnError) {
  PORTKERN_REQUIRE_GPU();
  Queue gpu(Device::cuda(0));
  Buffer<float> in(gpu.device(), 512), f(gpu.device(), 512);
  std::vector<float> host(512, 1);
  const Conv2dDesc d = conv_desc(1, 6, 6, 2, 2, 3, 3, 1, 1, {1, 1, 1, 1});
  EXPECT_PORTKERN_ERROR(conv2d(gpu, d, in.data(), f.data(), host.data()), "argument output is host memory");
}

}  // namespace
}  // namespace portkern::testing
