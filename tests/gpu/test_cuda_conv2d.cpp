// The convolution and pooling on a GPU: every algorithm and every instantiated configuration against the
// float64 reference (the CPU tests' test bed), pre-transformed Winograd weights, pooling, wrong-device memory.
#include <cstdlib>
#include <string_view>
#include <tuple>

#include "conv2d_cases.hpp"

#if PORTKERN_HAVE_CUDA
#include "gemm/cuda_wgmma/wgmma_gemm.hpp"
#endif

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

// Grouped convolutions of 16 output channels a group or more run as an implicit GEMM per group, in blocks of
// 128 x 128 where the groups are wide and the pixels many, at the precision's arithmetic; narrower groups run
// direct, depthwise ones depthwise.
TEST(Conv2dCudaApi, RuleRunsGroupsAsImplicitGemms) {
  PORTKERN_REQUIRE_GPU();
  auto grouped = [](std::int64_t c, std::int64_t groups, std::int64_t size) {
    Conv2dDesc d = conv_desc(1, size, size, c, c, 3, 3, 1, 1, {1, 1, 1, 1});
    d.groups = groups;
    return d;
  };
  const Device gpu = Device::cuda(0);
  EXPECT_EQ(conv2d_select(gpu, grouped(896, 7, 14)).config, "implicit/r8a1c8_wg16x16_staged_k32_s3_x3");
  EXPECT_EQ(conv2d_select(gpu, grouped(2048, 16, 7)).config, "implicit/r4a1c4_wg16x16_staged_k32_s3_x3");
  EXPECT_EQ(conv2d_select(gpu, grouped(160, 10, 14)).config, "implicit/r4a1c4_wg16x16_staged_k32_s3_x3");
  EXPECT_EQ(conv2d_select(gpu, grouped(896, 7, 14), Precision::tf32).config,
            "implicit/r8a1c8_wg16x16_staged_k32_s3_tf32");
  EXPECT_EQ(conv2d_select(gpu, grouped(896, 7, 14), Precision::ieee).config, "implicit/r8a1c8_wg16x16_staged_k16_s3");
  EXPECT_EQ(conv2d_select(gpu, grouped(96, 8, 14)).config, "direct/default");
  EXPECT_EQ(conv2d_select(gpu, grouped(96, 96, 14)).config, "depthwise/default");
}

// The deployments (tuned with `windowed` in their space) send first layers of 1 to 3 channels to `windowed`, at
// every precision and at strides, windows and images the tuning never saw, and the selection keeps that pick.
TEST(Conv2dCudaApi, DeploymentsRunStemsAsWindowed) {
  PORTKERN_REQUIRE_GPU();
  const Device gpu = Device::cuda(0);
  for (const Precision precision : {Precision::accurate, Precision::ieee, Precision::tf32})
    for (const Conv2dDesc& d : first_layer_descs())
      EXPECT_EQ(conv2d_select(gpu, d, precision).algorithm, "windowed")
          << name(precision) << " " << describe(d) << ": " << conv2d_select(gpu, d, precision).reason;
}

// The residual given in the output itself (oneDNN's sum post-op) on every GPU configuration: the GEMM-based
// paths write the product before their epilogue pass reads the residual.
TEST(Conv2dCudaApi, ResidualInTheOutput) {
  PORTKERN_REQUIRE_GPU();
  check_residual_in_output(Device::cuda(0));
}

// Depthwise's 4 (2) channels a thread read the input and filter as 16-byte (8-byte) vectors: from pointers that
// are not so aligned (a caller's offsets into a larger allocation) depthwise takes fewer channels a thread.
TEST(Conv2dCudaApi, DepthwiseFromUnalignedPointers) {
  PORTKERN_REQUIRE_GPU();
  for (const char* config : {"depthwise/pixel_c4", "depthwise/pixel_c2", "depthwise/default"})
    for (const std::int64_t misalign : {1, 2}) {   // a float off: a channel a thread; 2: 2 channels, not 4
      int applied = 0;
      for (const auto& x : conv_data()) {
        Queue q(Device::cuda(0));
        applied += check_conv2d(q, x, {"depthwise", config}, false, false, misalign);
      }
      EXPECT_GT(applied, 0) << config << " misaligned by " << misalign;
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

// The implicit GEMM on wgmma at every precision (tf32: TF32's bound; ieee: im2col's product), on the test bed and
// on layers of many tiles of pixels and k-tiles: 3 channels (pieces of 4 bytes), 6 (8 bytes), 68 (16 bytes), 64
// and more (the copy engine's im2col boxes, and again copied by threads), strides and padding on every side, split
// k on few pixels, batches whose tiles span two images, 130 outputs (C by threads) and 96.
TEST(Conv2dCudaApi, ImplicitWgmmaMatchesFloat64) {
  PORTKERN_REQUIRE_GPU();
  const std::vector<ConvCase> layers = {
      {conv_desc(2, 19, 23, 96, 64, 3, 3, 2, 2, {1, 0, 0, 1}), true, "3x3 stride 2, pad bottom and right only, 96 channels"},
      {conv_desc(1, 33, 30, 64, 40, 7, 7, 2, 2, {3, 2, 1, 3}, 1, 1, true), false, "7x7 stride 2, asymmetric pad, 64 channels"},
      {conv_desc(3, 10, 9, 32, 72, 5, 5, 1, 1, {2, 2, 2, 2}), true, "5x5, 32 channels, batch 3", true},
      {conv_desc(1, 37, 41, 3, 64, 7, 7, 2, 2, {3, 3, 3, 3}, 1, 1, true), true, "7x7 stride 2, 3 channels"},
      {conv_desc(2, 23, 19, 6, 96, 3, 3, 1, 1, {1, 1, 1, 1}), false, "3x3, 6 channels, batch 2"},
      {conv_desc(3, 14, 15, 64, 130, 3, 3, 1, 1, {1, 1, 1, 1}, 1, 1, true), true, "3x3, 64 -> 130, batch 3", true},
      {conv_desc(1, 7, 7, 256, 96, 3, 3, 1, 1, {1, 1, 1, 1}, 1, 1, true), true, "3x3 on 49 pixels, depth 2304", true},
      {conv_desc(2, 29, 31, 68, 64, 3, 3, 2, 2, {0, 1, 1, 0}), true, "3x3 stride 2, asymmetric pad"},
      {conv_desc(1, 17, 16, 32, 256, 1, 1, 1, 1, {0, 0, 0, 0}), false, "1x1, 256 outputs"},
  };
  // Where the copy engine could copy A, by threads too; the filter packed once (its tensor-core rows written by
  // conv2d_pack_filter, the original poisoned); k never split (the epilogue applied as the output is written,
  // wherever a case has one) and split in 3 (the epilogue as a pass after).
  for (const std::string_view mode : {"", "threads", "packed", "unsplit", "split"}) {
    SCOPED_TRACE(std::string("mode ") + std::string(mode));
    if (mode == "threads") setenv("PORTKERN_WGMMA_COPY", "threads", 1);
    if (mode == "unsplit" || mode == "split") setenv("PORTKERN_WGMMA_SPLITS", mode == "split" ? "3" : "1", 1);
    const bool packed = mode == "packed";
    for (Precision p : precisions) {
      const Conv2dChoice choice{"implicit_wgmma", "implicit_wgmma/default", p};
      check_all_cases(Device::cuda(0), choice, packed);
      for (const ConvCase& layer : layers)
        EXPECT_TRUE(check_conv2d(Device::cuda(0), make_conv_data(layer), choice, packed));
    }
    unsetenv("PORTKERN_WGMMA_COPY");
    unsetenv("PORTKERN_WGMMA_SPLITS");
  }
#if PORTKERN_HAVE_CUDA
  // The kernel applies the epilogue where k is not split (and not when told to leave it to a pass); a call without
  // one runs the kernel without it.
  if (hopper()) {
    namespace wgmma = gemm_impl::cuda_wgmma;
    Buffer<float> image(Device::cuda(0), 28 * 28 * 256), out(Device::cuda(0), 28 * 28 * 256);
    const wgmma::Windows w{image.data(), 28, 28, 256, 28, 28, 3, 1, 1, 1, 1, 1, 1, 28 * 28, 3 * 3 * 256};
    wgmma::Problem p = wgmma::convolution(w, image.data(), 256, out.data());
    p.epilogue = {image.data(), nullptr, true};
    for (const auto& [name, value, fused] : {std::tuple{"PORTKERN_WGMMA_SPLITS", "1", true},
                                             std::tuple{"PORTKERN_WGMMA_SPLITS", "2", false},
                                             std::tuple{"PORTKERN_WGMMA_EPILOGUE", "pass", false}}) {
      setenv("PORTKERN_WGMMA_SPLITS", "1", 1);
      setenv(name, value, 1);
      EXPECT_EQ(wgmma::fuses_epilogue(Device::cuda(0), wgmma::Input::tf32, p), fused) << name << "=" << value;
      EXPECT_EQ(wgmma::kernel_for(Device::cuda(0), wgmma::Input::tf32, p).find("_epilogue") != std::string::npos, fused);
      unsetenv("PORTKERN_WGMMA_SPLITS");
      unsetenv("PORTKERN_WGMMA_EPILOGUE");
    }
    p.epilogue = {};
    EXPECT_FALSE(wgmma::fuses_epilogue(Device::cuda(0), wgmma::Input::tf32, p));
  }
#endif
  // On the H100 a packed filter holds the rows (and the networks and benchmarks pack it), elsewhere it does not.
  Queue q(Device::cuda(0));
  const Conv2dDesc d = conv_desc(1, 9, 9, 32, 40, 3, 3, 1, 1, {1, 1, 1, 1});
  Buffer<float> filter(q.device(), 3 * 3 * 32 * 40);
  q.fill(filter.data(), 0.5f, filter.size());
  EXPECT_EQ(conv2d_pack_filter(q, d, filter.data()).tensor_core_rows() != nullptr, hopper());
  EXPECT_EQ(conv2d_packs_filter(q, {"implicit_wgmma", "", Precision::tf32}), hopper());
  EXPECT_FALSE(conv2d_packs_filter(q, {"implicit_wgmma", "", Precision::ieee}));
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
