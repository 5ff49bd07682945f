// Whole networks on the CPU (portkern/net.hpp): the reduced networks of net_cases.hpp against float64,
// through every GEMM family and the single-source one alone; safetensors round trips; clear errors for wrong
// weights and files; the full models' weights as torchvision names and shapes them.
#include <cstdio>
#include <fstream>

#include "net_cases.hpp"

namespace portkern::testing {
namespace {

using net::Model;
using net::Weights;

TEST(NetCpu, TinyResNetMatchesFloat64) {
  Queue q;
  const Model m = tiny_resnet();
  for (std::int64_t batch : {1, 3}) expect_matches_reference(q, m, net::random_weights(m, 5), batch);
}

TEST(NetCpu, TinyVggMatchesFloat64) {
  Queue q;
  const Model m = tiny_vgg();
  for (std::int64_t batch : {1, 2}) expect_matches_reference(q, m, net::random_weights(m, 6), batch);
}

TEST(NetCpu, PortableFamilyAloneMatchesFloat64) {
  Queue q;
  q.set_gemm_family("tiled");
  expect_matches_reference(q, tiny_resnet(), net::random_weights(tiny_resnet(), 8), 2);
  expect_matches_reference(q, tiny_vgg(), net::random_weights(tiny_vgg(), 9), 1);
}

// Layers whose configuration is timed at load (LayerPick::timed) compute the same network: every configuration
// the deployment ships that applies is run once on the layer's own buffers, and the one kept must be right.
TEST(NetCpu, TimedLayerPicksMatchFloat64) {
  Queue q;
  const net::Engine timed = net::library_engine(Precision::accurate, net::LayerPick::timed);
  expect_matches_reference(q, tiny_resnet(), net::random_weights(tiny_resnet(), 13), 2, timed);
  expect_matches_reference(q, tiny_vgg(), net::random_weights(tiny_vgg(), 14), 1, timed);
  EXPECT_EQ(net::parse_layer_pick("timed"), net::LayerPick::timed);
  EXPECT_EQ(net::name(net::parse_layer_pick("tree")), "tree");
  EXPECT_PORTKERN_ERROR(net::parse_layer_pick("fastest"), "unknown layer pick 'fastest' (tree or timed)");
}

TEST(NetCpu, SafetensorsRoundTrip) {
  const Model m = tiny_resnet();
  const Weights w = net::random_weights(m, 3);
  const std::string path = ::testing::TempDir() + "portkern_net_weights.safetensors";
  net::save_safetensors(path, w);
  const Weights back = net::load_safetensors(path);
  ASSERT_EQ(back.size(), w.size());
  for (const auto& [name, t] : w) {
    ASSERT_TRUE(back.count(name)) << name;
    EXPECT_EQ(back.at(name).shape, t.shape) << name;
    EXPECT_EQ(back.at(name).data, t.data) << name;
  }
  std::remove(path.c_str());
}

TEST(NetCpu, BadWeightsAndFilesAreErrors) {
  Queue q;
  const Model m = tiny_vgg();
  Weights w = net::random_weights(m, 4);
  w.erase("features.3.bias");
  EXPECT_PORTKERN_ERROR(net::Network(q, m, w, 1), "the weights have no tensor 'features.3.bias' (expected shape [12])");
  w = net::random_weights(m, 4);
  w["classifier.0.weight"].shape = {33, 190};
  EXPECT_PORTKERN_ERROR(net::Network(q, m, w, 1),
                        "weight 'classifier.0.weight' has shape [33, 190], expected [33, 192]");
  EXPECT_PORTKERN_ERROR(net::Network(q, m, net::random_weights(m, 4), 0), "argument batch = 0 must be >= 1");
  const std::string path = ::testing::TempDir() + "portkern_net_bad.safetensors";
  // A file of a header length, a header and eight bytes of data.
  auto write_file = [&](std::uint64_t length, const std::string& header) {
    std::ofstream f(path, std::ios::binary);
    f.write(reinterpret_cast<const char*>(&length), 8);
    f << header << std::string(8, '\0');
  };
  write_file(1000, "{}");
  EXPECT_PORTKERN_ERROR(net::load_safetensors(path), "its header length 1000 exceeds the file");
  std::string header = R"({"x": {"dtype": "I64", "shape": [1], "data_offsets": [0, 8]}})";
  write_file(header.size(), header);
  EXPECT_PORTKERN_ERROR(net::load_safetensors(path), "tensor 'x': dtype I64 is not supported (F32, F16 or BF16)");
  header = R"({"x": {"dtype": "F32", "shape": [2305843009213693952], "data_offsets": [0, 8]}})";
  write_file(header.size(), header);
  EXPECT_PORTKERN_ERROR(net::load_safetensors(path),
                        "the bytes of tensor 'x' = 2305843009213693952 * 4 does not fit in 64 bits");
  std::remove(path.c_str());
  EXPECT_PORTKERN_ERROR(net::load_safetensors(path), "cannot open");
  EXPECT_PORTKERN_ERROR(net::model_by_name("alexnet"), "unknown model 'alexnet' (vgg16 or resnet50)");
}

TEST(NetCpu, FullModelsHaveTorchvisionShapes) {
  // The weights random_weights makes are those torchvision's state dicts hold (names and shapes).
  const Weights vgg = net::random_weights(net::vgg16(), 1);
  EXPECT_EQ(vgg.size(), 32u);  // 13 convolutions and 3 linear layers, weight and bias each
  EXPECT_EQ(vgg.at("features.28.weight").shape, (std::vector<std::int64_t>{512, 512, 3, 3}));
  EXPECT_EQ(vgg.at("classifier.0.weight").shape, (std::vector<std::int64_t>{4096, 25088}));
  const Weights resnet = net::random_weights(net::resnet50(), 1);
  EXPECT_EQ(resnet.size(), 53u * 5 + 2);  // 53 convolutions with batch norm (4 tensors each), fc weight and bias
  EXPECT_EQ(resnet.at("layer4.2.conv3.weight").shape, (std::vector<std::int64_t>{2048, 512, 1, 1}));
  EXPECT_EQ(resnet.at("layer2.0.downsample.0.weight").shape, (std::vector<std::int64_t>{512, 256, 1, 1}));
  EXPECT_EQ(resnet.at("fc.weight").shape, (std::vector<std::int64_t>{1000, 2048}));
}

}  // namespace
}  // namespace portkern::testing
