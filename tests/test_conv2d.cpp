// The convolution and pooling on the CPU: every algorithm and every instantiated configuration against the
// float64 reference (conv2d_cases.hpp), the deployment's choice (always applicable), pre-transformed Winograd
// weights, pooling, the descriptor and pointer checks, and that each configuration's name runs its own kernel.
#include <string>
#include <string_view>

#include "conv2d/grouped/block.hpp"
#include "conv2d/tiled/instantiated.hpp"
#include "conv2d/tiled/tiled_config.hpp"
#include "conv2d/windowed/instantiated.hpp"
#include "conv2d_cases.hpp"

namespace portkern::testing {
namespace {

class Conv2dCpu : public ::testing::TestWithParam<Conv2dChoice> {};

TEST_P(Conv2dCpu, MatchesReference) { check_all_cases(Device::cpu(), GetParam()); }

INSTANTIATE_TEST_SUITE_P(Instantiated, Conv2dCpu, ::testing::ValuesIn(conv2d_space(Device::cpu())), ConfigName());

// Each instantiated configuration's name launches the kernel of that name (config_names::with_instantiated): the
// reference tests above would pass on a neighbour's kernel too. A name of the space that is not instantiated
// launches none.
TEST(Conv2dRegistry, NamesLaunchTheirOwnKernels) {
  using namespace conv2d_impl;
  for (const std::string_view config : windowed_instantiated) {
    std::string launched;
    EXPECT_TRUE(with_windowed_conv(config, ConvArgs{}, false, [&]<class K>(const K&) {
      launched = name(WindowedConfig{K::TH, K::TW, K::BK, K::PX, K::VK});
    }));
    EXPECT_EQ(launched, config);
  }
  for (const std::string_view config : tiled_instantiated) {
    std::string launched;
    EXPECT_TRUE(with_tiled_conv(config, ConvArgs{}, false, false, [&]<class K>(const K&) {
      launched = name(TiledConvConfig{K::TH, K::TW, K::VC, K::VK});
    }));
    EXPECT_EQ(launched, config);
  }
  bool ran = false;
  EXPECT_FALSE(with_windowed_conv("windowed/t2x8_k32_p2v4", ConvArgs{}, false, [&](const auto&) { ran = true; }));
  EXPECT_FALSE(ran);
}

TEST(Conv2dCpuApi, RuleChoosesWithoutForce) { check_all_cases(Device::cpu(), {}); }

// Every algorithm the CPU instantiates (implicit_wgmma is CUDA's alone) runs by its name alone.
TEST(Conv2dCpuApi, AlgorithmAloneTakesItsDefaultConfig) {
  EXPECT_GE(conv2d_algorithms().size(), 5u);
  const auto built = conv2d_space(Device::cpu());
  for (const std::string& algorithm : conv2d_algorithms())
    if (std::any_of(built.begin(), built.end(), [&](const Conv2dChoice& c) { return c.algorithm == algorithm; }))
      check_all_cases(Device::cpu(), {algorithm, ""});
}

TEST(Conv2dCpuApi, WinogradWithPretransformedFilter) {
  check_all_cases(Device::cpu(), {"winograd", "winograd/f2"}, true);
  check_all_cases(Device::cpu(), {"winograd", "winograd/f4"}, true);
}

// The GEMM-based algorithms with the filter packed once (conv2d_pack_filter): every case each applies to,
// every configuration, both thread counts (one: the im2col chunks' GEMMs; two: panels or columns split; grouped:
// the (group, row) pairs split).
TEST(Conv2dCpuApi, GemmAlgorithmsWithPackedFilter) {
  for (const char* config : {"gemm_1x1/default", "im2col/whole", "im2col/chunked", "im2col/in_place", "grouped/gemm"}) {
    const std::string algorithm = std::string(config).substr(0, std::string(config).find('/'));
    check_all_cases(Device::cpu(), {algorithm, config}, true);
    for (const auto& x : conv_data()) {
      Queue one(Device::cpu(), 1);
      check_conv2d(one, x, {algorithm, config}, true);
    }
  }
}

// im2col/in_place copies a padded image in bands of output rows, each core its share; grouped/gemm writes a
// group's patches in chunks of rows, each core its share of the (group, row) pairs: bands and chunks of one row
// each (a budget of a few bytes) and of the default size, one and two cores, every case (batches span images,
// a core's share spans groups).
TEST(Conv2dCpuApi, BandsAndChunksOfEverySize) {
  for (const char* budget : {"0.000001", ""}) {
    SCOPED_TRACE(std::string("PORTKERN_CONV2D_CHUNK_MB=") + budget);
    if (*budget) setenv("PORTKERN_CONV2D_CHUNK_MB", budget, 1);
    for (const Conv2dChoice& choice :
         {Conv2dChoice{"im2col", "im2col/in_place"}, Conv2dChoice{"grouped", "grouped/gemm"}}) {
      int applied = 0;
      for (int threads : {1, 2})
        for (const auto& x : conv_data()) {
          Queue q(Device::cpu(), threads);
          applied += check_conv2d(q, x, choice);
        }
      EXPECT_GT(applied, 0) << choice.config;
    }
    unsetenv("PORTKERN_CONV2D_CHUNK_MB");
  }
}

// Winograd on two cores splits the tiles (where their data outweighs the filter) or the output channels, and walks a
// part's tiles in chunks: layers that take each split (the conv cases have too few tiles for the channel split), with
// chunks of one tile (a budget of a few bytes) and of the default size, both tiles, one and two cores.
TEST(Conv2dCpuApi, WinogradPartsAndChunksOfEverySize) {
  const std::vector<ConvCase> cases = {
      {conv_desc(1, 12, 12, 100, 90, 3, 3, 1, 1, {1, 1, 1, 1}, 1, 1, true), true, "36 tiles of 100 -> 90: by channels",
       true},
      {conv_desc(2, 15, 13, 9, 20, 3, 3, 1, 1, {1, 1, 1, 1}), true, "batch 2, 9 -> 20: by tiles"}};
  for (const char* budget : {"0.000001", ""}) {
    SCOPED_TRACE(std::string("PORTKERN_CONV2D_WINOGRAD_MB=") + budget);
    if (*budget) setenv("PORTKERN_CONV2D_WINOGRAD_MB", budget, 1);
    for (const ConvCase& c : cases) {
      const ConvData x = make_conv_data(c);
      for (const char* config : {"winograd/f2", "winograd/f4"})
        for (int threads : {1, 2}) {
          Queue q(Device::cpu(), threads);
          EXPECT_TRUE(check_conv2d(q, x, {"winograd", config})) << c.label << " " << config;
        }
    }
    unsetenv("PORTKERN_CONV2D_WINOGRAD_MB");
  }
}

// The residual given in the output itself (oneDNN's sum post-op), on every configuration.
TEST(Conv2dCpuApi, ResidualInTheOutput) { check_residual_in_output(Device::cpu()); }

TEST(Conv2dCpuApi, PackedFilterIsCheckedAgainstTheDescriptor) {
  Queue q;
  std::vector<float> in(512, 1), f(512, 1), out(512, 1);
  const Conv2dDesc d = conv_desc(1, 6, 6, 2, 3, 3, 3, 1, 1, {1, 1, 1, 1});
  const Conv2dPackedFilter packed = conv2d_pack_filter(q, d, f.data());
  EXPECT_EQ(packed.out_c(), 3);
  EXPECT_PORTKERN_ERROR(conv2d(q, conv_desc(1, 6, 6, 2, 4, 3, 3, 1, 1, {1, 1, 1, 1}), in.data(), packed, out.data()),
                        "argument filter.out_c() = 3 must be desc.out_c = 4");
  EXPECT_PORTKERN_ERROR(conv2d(q, conv_desc(1, 6, 6, 2, 3, 1, 1, 1, 1, {0, 0, 0, 0}), in.data(), packed, out.data()),
                        "argument filter.window_h() = 3 must be desc.window_h = 1");
  EXPECT_PORTKERN_ERROR(conv2d(q, d, in.data(), packed, out.data(), {"winograd", ""}),
                        "a packed filter runs gemm_1x1, im2col, implicit_wgmma or grouped/gemm, not 'winograd/f");
  EXPECT_PORTKERN_ERROR(conv2d(q, d, nullptr, packed, out.data()), "argument input = nullptr");
  // Groups: a matrix per group, whose count must be the descriptor's; depthwise filters are not packed.
  Conv2dDesc grouped = conv_desc(1, 6, 6, 4, 6, 3, 3, 1, 1, {1, 1, 1, 1});
  grouped.groups = 2;
  const Conv2dPackedFilter groups = conv2d_pack_filter(q, grouped, f.data());
  EXPECT_EQ(groups.groups(), 2);
  EXPECT_EQ(groups.matrix(1).m(), 3);
  EXPECT_EQ(groups.matrix(1).k(), 18);
  Conv2dDesc other = grouped;
  other.groups = 1;
  EXPECT_PORTKERN_ERROR(conv2d(q, other, in.data(), groups, out.data()),
                        "argument filter.groups() = 2 must be desc.groups = 1");
  EXPECT_PORTKERN_ERROR(conv2d(q, grouped, in.data(), groups, out.data(), {"grouped", "grouped/default"}),
                        "a packed filter runs gemm_1x1, im2col, implicit_wgmma or grouped/gemm, not 'grouped/default'");
  Conv2dDesc depthwise = conv_desc(1, 6, 6, 2, 2, 3, 3, 1, 1, {1, 1, 1, 1});
  depthwise.groups = 2;
  EXPECT_PORTKERN_ERROR(conv2d_pack_filter(q, depthwise, f.data()),
                        "argument desc.groups = 2 must be not in_c = out_c (a depthwise filter is read as it is)");
}

// Every precision runs the rule's picks (the CPU's GEMMs compute IEEE products at each) and Winograd's
// pre-transformed path; a configuration of an arithmetic the precision does not allow is refused by name, on
// every back end (the GPU's 3xTF32 implicit configurations are not instantiated here: the precision says no
// first).
TEST(Conv2dCpuApi, EveryPrecisionRunsAndForcedArithmeticIsChecked) {
  for (Precision p : precisions) {
    check_all_cases(Device::cpu(), {"", "", p});
    check_all_cases(Device::cpu(), {"winograd", "winograd/f4", p}, true);
  }
  const Conv2dDesc d = conv_desc(1, 8, 8, 16, 16, 3, 3, 1, 1, {1, 1, 1, 1});
  std::string why;
  EXPECT_FALSE(conv2d_supports(Device::cpu(), d, {"", "implicit/r8a1c8_wg16x16_staged_k32_s3_x3", Precision::ieee}, &why));
  EXPECT_EQ(why, "configuration 'implicit/r8a1c8_wg16x16_staged_k32_s3_x3' computes with tf32x3 arithmetic, which "
                 "precision 'ieee' does not allow");
  EXPECT_FALSE(conv2d_supports(Device::cpu(), d, {"", "implicit/r8a1c8_wg16x16_staged_k32_s3_tf32"}, &why));
  EXPECT_NE(why.find("which precision 'accurate' does not allow"), std::string::npos) << why;
  EXPECT_FALSE(conv2d_supports(Device::cpu(), d, {"", "implicit/r8a1c8_wg16x16_staged_k32_s3_x3"}, &why));
  EXPECT_NE(why.find("not instantiated"), std::string::npos) << why;   // allowed, but a GPU configuration
}

// Whatever the generated deployment (deploy/<class>/conv2d.hpp) picks, the pick runs the descriptor: on the
// networks' layers and on shapes unlike any it was tuned on (where a pick that does not apply falls back to
// im2col); dilation always takes the direct path.
TEST(Conv2dCpuApi, SelectionAlwaysApplies) {
  const Device cpu = Device::cpu();
  std::vector<Conv2dDesc> shapes;
  for (std::int64_t batch : {1, 3, 16}) {
    shapes.push_back(conv_desc(batch, 56, 56, 64, 256, 1, 1, 1, 1, {0, 0, 0, 0}));      // ResNet 1x1
    shapes.push_back(conv_desc(batch, 14, 14, 256, 256, 3, 3, 1, 1, {1, 1, 1, 1}));    // ResNet 3x3
    shapes.push_back(conv_desc(batch, 56, 56, 64, 64, 3, 3, 2, 2, {1, 1, 1, 1}));      // 3x3 stride 2
    shapes.push_back(conv_desc(batch, 224, 224, 3, 64, 3, 3, 1, 1, {1, 1, 1, 1}));     // VGG conv1_1
    shapes.push_back(conv_desc(batch, 230, 230, 3, 64, 7, 7, 2, 2, {0, 0, 0, 0}));     // ResNet conv1
    shapes.push_back(conv_desc(batch, 28, 28, 32, 48, 1, 1, 2, 2, {0, 0, 0, 0}));      // 1x1 stride 2
    shapes.push_back(conv_desc(batch, 28, 28, 32, 48, 1, 1, 1, 1, {1, 1, 1, 1}));      // 1x1, padded
    shapes.push_back(conv_desc(batch, 17, 17, 24, 40, 5, 5, 1, 1, {2, 2, 2, 2}));      // 5x5
    shapes.push_back(conv_desc(batch, 17, 17, 24, 40, 1, 7, 1, 1, {0, 0, 3, 3}));      // Inception 1x7
    shapes.push_back(conv_desc(batch, 227, 227, 3, 96, 11, 11, 4, 4, {0, 0, 0, 0}));   // AlexNet conv1
    shapes.push_back(conv_desc(batch, 9, 9, 1, 1, 3, 3, 1, 1, {0, 0, 0, 0}));          // one channel
  }
  for (const Conv2dDesc& d : shapes) {
    const Conv2dSelection pick = conv2d_select(cpu, d);
    std::string why;
    EXPECT_TRUE(conv2d_supports(cpu, d, {pick.algorithm, pick.config}, &why))
        << pick.config << " for " << d.window_h << "x" << d.window_w << "/" << d.stride_h << ": " << why;
    EXPECT_NE(pick.reason.find("deploy/cpu-"), std::string::npos) << pick.reason;
    if (pick.reason.find("does not apply") != std::string::npos)
      EXPECT_EQ(pick.config, conv2d_deployment(cpu).fallback);
  }
  const Conv2dSelection dilated = conv2d_select(cpu, conv_desc(1, 56, 56, 64, 64, 3, 3, 1, 1, {2, 2, 2, 2}, 2, 2));
  EXPECT_EQ(dilated.algorithm, "direct");
  // Depthwise convolutions (MobileNet, stride 1 and 2) take the depthwise path, other grouped ones (ResNeXt; a
  // depthwise one with a channel multiplier) the grouped path: a GEMM per group from 8 output channels a group,
  // except groups of 2, 4 or 8 input and output channels (the block-diagonal mode of grouped/default), and of 16
  // but on images of 28 x 28 output pixels or more at stride 1.
  for (auto [c, k, groups, stride, size] :
       {std::array<std::int64_t, 5>{128, 128, 32, 1, 28}, {96, 96, 96, 1, 28}, {144, 144, 144, 2, 28},
        {32, 64, 32, 1, 28}, {256, 256, 32, 2, 28}, {512, 512, 32, 1, 28}, {96, 256, 2, 1, 28},
        {1024, 1024, 32, 1, 7}, {1024, 1024, 32, 2, 26}, {1024, 1024, 32, 2, 27}, {1024, 1024, 32, 1, 14},
        {512, 512, 16, 1, 56}, {512, 512, 32, 1, 28}, {512, 512, 32, 2, 56}, {256, 256, 16, 1, 14}}) {
    Conv2dDesc d = conv_desc(1, size, size, c, k, 3, 3, stride, stride, {1, 1, 1, 1});
    d.groups = groups;
    const Conv2dSelection pick = conv2d_select(cpu, d);
    const int block = conv2d_impl::block_diagonal_channels(c, k, groups);   // 8 needs 8 lanes (not on NEON)
    const std::int64_t side = (size - 1) / stride + 1;   // of the output
    const bool gemm = block == 0 || block == 32 || (block == 16 && stride == 1 && side >= 28);
    EXPECT_EQ(pick.config, groups == c && c == k ? "depthwise/default"
                           : !gemm || k / groups < 8 ? "grouped/default"
                                                     : "grouped/gemm")
        << pick.reason;
    const std::string why = " takes the depthwise, grouped, implicit or direct path only";
    EXPECT_NE(pick.reason.find("groups = " + std::to_string(groups) + why), std::string::npos)
        << pick.reason;
  }
}

TEST(Conv2dCpuApi, SameAndValidPadding) {
  const Conv2dDesc same = conv2d_complete(with_padding(conv_desc(1, 10, 9, 1, 1, 3, 4, 2, 2, {0, 0, 0, 0}), Padding::same));
  EXPECT_EQ(same.out_h, 5);
  EXPECT_EQ(same.out_w, 5);
  EXPECT_EQ(same.pad_top + same.pad_bottom, 1);   // (5-1)*2 + 3 - 10
  EXPECT_EQ(same.pad_left, 1);                    // (5-1)*2 + 4 - 9 = 3: 1 left, 2 right
  EXPECT_EQ(same.pad_right, 2);
  const Conv2dDesc valid = conv2d_complete(with_padding(conv_desc(1, 10, 9, 1, 1, 3, 4, 2, 2, {1, 1, 1, 1}), Padding::valid));
  EXPECT_EQ(valid.pad_top + valid.pad_bottom + valid.pad_left + valid.pad_right, 0);
  EXPECT_EQ(valid.out_h, 4);
  EXPECT_EQ(valid.out_w, 3);
}

TEST(Conv2dCpuApi, BadDescriptorsAreErrors) {
  Queue q;
  std::vector<float> in(4096, 1), f(4096, 1), out(4096, 1);
  auto call = [&](Conv2dDesc d, Conv2dChoice c = {}) { conv2d(q, d, in.data(), f.data(), out.data(), c); };
  Conv2dDesc d = conv_desc(1, 6, 6, 2, 2, 3, 3, 1, 1, {1, 1, 0, 0});
  d.out_h = 5;
  EXPECT_PORTKERN_ERROR(call(d), "portkern::conv2d: argument desc.out_h = 5 must be (in_h + pad_top + pad_bottom - "
                                 "dilation_h*(window_h-1) - 1)/stride_h + 1 = 6");
  d.out_h = 0;
  d.out_w = 7;
  EXPECT_PORTKERN_ERROR(call(d), "argument desc.out_w = 7 must be (in_w + pad_left + pad_right - dilation_w*(window_w-1) - 1)/stride_w + 1 = 4");
  EXPECT_PORTKERN_ERROR(call(conv_desc(1, 6, 6, 0, 2, 3, 3, 1, 1, {0, 0, 0, 0})), "argument desc.in_c = 0 must be >= 1");
  EXPECT_PORTKERN_ERROR(call(conv_desc(1, 6, 6, 2, 0, 3, 3, 1, 1, {0, 0, 0, 0})), "argument desc.out_c = 0 must be >= 1");
  EXPECT_PORTKERN_ERROR(call(conv_desc(0, 6, 6, 2, 2, 3, 3, 1, 1, {0, 0, 0, 0})), "argument desc.batch = 0 must be >= 1");
  EXPECT_PORTKERN_ERROR(call(conv_desc(1, 4, 6, 2, 2, 7, 3, 1, 1, {1, 1, 0, 0})),
                        "argument desc.window_h = 7 must be such that dilation_h*(window_h-1) + 1 = 7 <= in_h + pad_top + pad_bottom = 6");
  EXPECT_PORTKERN_ERROR(call(conv_desc(1, 6, 6, 2, 2, 3, 3, 1, 1, {0, 0, 0, 0}, 3, 1)),
                        "argument desc.window_h = 3 must be such that dilation_h*(window_h-1) + 1 = 7 <= in_h");
  EXPECT_PORTKERN_ERROR(call(conv_desc(1, 6, 6, 2, 2, 3, 3, 0, 1, {0, 0, 0, 0})), "argument desc.stride_h = 0 must be >= 1");
  EXPECT_PORTKERN_ERROR(call(conv_desc(1, 6, 6, 2, 2, 3, 3, 1, 1, {0, 0, -1, 0})), "argument desc.pad_left = -1 must be >= 0");
  EXPECT_PORTKERN_ERROR(call(conv_desc(1, 6, 6, 2, 2, 3, 3, 1, 1, {0, 0, 0, 0}, 1, 0)), "argument desc.dilation_w = 0 must be >= 1");
  Conv2dDesc grouped = conv_desc(1, 6, 6, 6, 4, 3, 3, 1, 1, {0, 0, 0, 0});
  grouped.groups = 0;
  EXPECT_PORTKERN_ERROR(call(grouped), "argument desc.groups = 0 must be >= 1");
  grouped.groups = 4;
  EXPECT_PORTKERN_ERROR(call(grouped), "argument desc.in_c = 6 must be a multiple of desc.groups = 4");
  grouped.groups = 3;
  EXPECT_PORTKERN_ERROR(call(grouped), "argument desc.out_c = 4 must be a multiple of desc.groups = 3");
  grouped.groups = 2;
  EXPECT_PORTKERN_ERROR(call(grouped, {"im2col", ""}),
                        "groups = 2 takes the depthwise, grouped, implicit or direct path only");
  EXPECT_PORTKERN_ERROR(call(grouped, {"depthwise", ""}),
                        "depthwise needs groups = in_c = out_c (got groups 2, in_c 6, out_c 4)");
  // Choices that do not fit the descriptor.
  const Conv2dDesc five = conv_desc(1, 8, 8, 2, 2, 5, 5, 1, 1, {0, 0, 0, 0});
  EXPECT_PORTKERN_ERROR(call(five, {"winograd", ""}), "cannot use 'winograd/f4' for this descriptor: winograd needs a 3x3 window");
  EXPECT_PORTKERN_ERROR(call(five, {"gemm_1x1", ""}), "gemm_1x1 needs a 1x1 window");
  EXPECT_PORTKERN_ERROR(call(conv_desc(1, 8, 8, 2, 2, 3, 3, 1, 1, {2, 2, 2, 2}, 2, 2), {"im2col", ""}),
                        "dilation > 1 takes the direct path only");
  EXPECT_PORTKERN_ERROR(call(five, {"", "tiled/t4x4_c2_k2"}),
                        "configuration 'tiled/t4x4_c2_k2' is not instantiated in this build for cpu (this build runs tiled/t1x1_c1_k1, ");
  // A configuration of another back end's list.
  EXPECT_PORTKERN_ERROR(call(five, {"", "implicit/r8a1c8_wg16x16_staged_k32_s3_x3"}),
                        "configuration 'implicit/r8a1c8_wg16x16_staged_k32_s3_x3' is not instantiated in this build for cpu");
  EXPECT_PORTKERN_ERROR(call(five, {"", "tiled/t3x3_c1_k1"}), "unknown configuration 'tiled/t3x3_c1_k1' (this build runs tiled/");
  EXPECT_PORTKERN_ERROR(call(five, {"", "tiled/nosuch"}), "unknown configuration 'tiled/nosuch'");
  EXPECT_PORTKERN_ERROR(call(five, {"tiled", "im2col/whole"}), "configuration 'im2col/whole' is not one of algorithm 'tiled'");
  EXPECT_PORTKERN_ERROR(conv2d_default_config(Device::cpu(), "fft"), "conv2d_default_config: unknown algorithm 'fft'");
  EXPECT_PORTKERN_ERROR(call(five, {"fft", ""}), "cannot use 'fft' for this descriptor: unknown algorithm 'fft' (one of direct, ");
}

TEST(Conv2dCpuApi, NullPointersAreErrors) {
  Queue q;
  std::vector<float> in(512, 1), f(512, 1), out(512, 1);
  const Conv2dDesc d = conv_desc(1, 6, 6, 2, 2, 3, 3, 1, 1, {1, 1, 1, 1});
  EXPECT_PORTKERN_ERROR(conv2d(q, d, nullptr, f.data(), out.data()), "argument input = nullptr");
  EXPECT_PORTKERN_ERROR(conv2d(q, d, in.data(), nullptr, out.data()), "argument filter = nullptr");
  EXPECT_PORTKERN_ERROR(conv2d(q, d, in.data(), f.data(), nullptr), "argument output = nullptr");
  EXPECT_PORTKERN_ERROR(winograd_transform_filter(q, 2, 2, f.data(), 3), "argument tile = 3 must be 2");
  const WinogradFilter w = winograd_transform_filter(q, 2, 3, f.data(), 2);
  EXPECT_PORTKERN_ERROR(conv2d_winograd(q, d, in.data(), w, out.data()), "argument filter.out_c() = 3 must be desc.out_c = 2");
  EXPECT_PORTKERN_ERROR(conv2d_winograd(q, conv_desc(1, 6, 6, 2, 3, 3, 3, 2, 2, {1, 1, 1, 1}), in.data(), w, out.data()),
                        "winograd needs stride 1");
}

TEST(Conv2dCpuApi, DeploymentDescribesWhatItPicksFrom) {
  const Conv2dDeployment deployed = conv2d_deployment(Device::cpu());
  EXPECT_TRUE(deployed.device_class.starts_with("cpu-")) << deployed.device_class;
  ASSERT_FALSE(deployed.algorithms.empty());
  ASSERT_EQ(deployed.configs.size(), deployed.algorithms.size());
  const std::vector<std::string> all = conv2d_algorithms();
  for (std::size_t i = 0; i < deployed.algorithms.size(); ++i) {
    EXPECT_NE(std::find(all.begin(), all.end(), deployed.algorithms[i]), all.end()) << deployed.algorithms[i];
    EXPECT_FALSE(deployed.configs[i].empty()) << deployed.algorithms[i];
  }
  // im2col, which takes any undilated convolution (tools/tuning/runtime_rules.py)
  EXPECT_TRUE(deployed.fallback.starts_with("im2col/")) << deployed.fallback;
  EXPECT_TRUE(conv2d_supports(Device::cpu(), conv_desc(1, 9, 9, 3, 5, 7, 7, 2, 2, {3, 3, 3, 3}),
                              {"im2col", deployed.fallback}));
}

TEST(Conv2dCpuApi, SpaceIsEnumerableWithStableNames) {
  const auto all = conv2d_space(Device::cpu(), false);
  EXPECT_EQ(std::count_if(all.begin(), all.end(), [](const Conv2dChoice& c) { return c.algorithm == "tiled"; }), 81);
  std::vector<std::string> seen;
  for (const auto& c : all)
    if (seen.empty() || seen.back() != c.algorithm) seen.push_back(c.algorithm);
  EXPECT_EQ(seen, conv2d_algorithms());   // the registry's order, each algorithm's configurations together
  for (const auto& c : conv2d_space(Device::cpu())) {
    EXPECT_TRUE(c.config.starts_with(c.algorithm + "/")) << c.config;
    EXPECT_NE(std::find(all.begin(), all.end(), c), all.end()) << c.config;
  }
}

TEST(Pool2dCpu, MaxMatchesReference) {
  for (const auto& d : pool_cases()) check_pool(Device::cpu(), d, true);
}
TEST(Pool2dCpu, AverageCountsOnlyInBoundsElements) {
  for (const auto& d : pool_cases()) check_pool(Device::cpu(), d, false);
}

TEST(Pool2dCpu, BadDescriptorsAreErrors) {
  Queue q;
  std::vector<float> in(1024, 1), out(1024, 1);
  Pool2dDesc d;
  d.in_h = d.in_w = 8, d.channels = 3;
  d.pad_top = 2;
  EXPECT_PORTKERN_ERROR(max_pool2d(q, d, in.data(), out.data()), "portkern::pool2d: argument desc.pad_top = 2 must be >= 0 and < window_h = 2");
  d.pad_top = 0;
  d.out_w = 3;
  EXPECT_PORTKERN_ERROR(avg_pool2d(q, d, in.data(), out.data()), "argument desc.out_w = 3 must be (in_w + pad_left + pad_right - window_w)/stride_w + 1 = 4");
  d.out_w = 0;
  d.channels = 0;
  EXPECT_PORTKERN_ERROR(avg_pool2d(q, d, in.data(), out.data()), "argument desc.channels = 0 must be >= 1");
  d.channels = 3;
  EXPECT_PORTKERN_ERROR(max_pool2d(q, d, nullptr, out.data()), "argument input = nullptr");
}

}  // namespace
}  // namespace portkern::testing
