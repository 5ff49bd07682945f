// The kernel model's group building blocks on a GPU.
#include "group_check.hpp"

namespace portkern::testing {
namespace {

TEST(GroupAlgorithmsCuda, ReduceScanAndAtomics) {
  PORTKERN_REQUIRE_GPU();
  check_group_algorithms(Device::cuda(0), {1, 1, 1}, run_group_check_cuda<GroupCheck>);
  check_group_algorithms(Device::cuda(0), {130, 3, 2}, run_group_check_cuda<GroupCheck>);
  check_group_algorithms(Device::cuda(0), {1, 1, 1}, run_group_check_cuda<GroupCheckWarps>);
  check_group_algorithms(Device::cuda(0), {130, 3, 2}, run_group_check_cuda<GroupCheckWarps>);
}

}  // namespace
}  // namespace portkern::testing
