// The kernel model's group building blocks on the CPU (groups run concurrently on the OpenMP threads).
#include "group_check.hpp"

namespace portkern::testing {
namespace {

TEST(GroupAlgorithmsCpu, ReduceScanAndAtomics) {
  check_group_algorithms(Device::cpu(), {1, 1, 1}, run_group_check_cpu<GroupCheck>);
  check_group_algorithms(Device::cpu(), {13, 3, 2}, run_group_check_cpu<GroupCheck>);
  check_group_algorithms(Device::cpu(), {1, 1, 1}, run_group_check_cpu<GroupCheckWarps>);
  check_group_algorithms(Device::cpu(), {13, 3, 2}, run_group_check_cpu<GroupCheckWarps>);
}

}  // namespace
}  // namespace portkern::testing
