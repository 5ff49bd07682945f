// Whole networks on a GPU: the reduced networks of net_cases.hpp against float64, deployed and through the
// single-source GEMM family alone.
#include "net_cases.hpp"

namespace portkern::testing {
namespace {

TEST(NetCuda, TinyNetworksMatchFloat64) {
  PORTKERN_REQUIRE_GPU();
  Queue q(Device::cuda(0));
  expect_matches_reference(q, tiny_resnet(), net::random_weights(tiny_resnet(), 5), 3);
  expect_matches_reference(q, tiny_vgg(), net::random_weights(tiny_vgg(), 6), 2);
  q.set_gemm_family("tiled");
  expect_matches_reference(q, tiny_resnet(), net::random_weights(tiny_resnet(), 8), 2);
}

}  // namespace
}  // namespace portkern::testing
