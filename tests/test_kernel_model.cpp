// The kernel model's CPU lowering: groups, items in three dimensions, local memory with identities, private
// arrays across barriers, diagonal fragments, dividers.
#include "model_check.hpp"
#include "portkern/kernel/cpu.hpp"

namespace portkern::testing {
namespace {

TEST(KernelModelCpu, GroupsItemsLocalAndPrivate) {
  for (kernel::Range groups : {kernel::Range{1, 1, 1}, kernel::Range{3, 2, 2}, kernel::Range{7, 1, 1}}) {
    Queue q;
    std::vector<int> out(std::size_t(groups.size()) * ModelCheck::size * 4, -999999);
    run_model_check_cpu(q, groups, out.data());
    expect_model_check(out, groups);
  }
}

TEST(KernelModelCpu, SingleThreadQueue) {
  Queue q(Device::cpu(), 1);
  const kernel::Range groups{5, 3, 1};
  std::vector<int> out(std::size_t(groups.size()) * ModelCheck::size * 4, -999999);
  run_model_check_cpu(q, groups, out.data());
  expect_model_check(out, groups);
}

TEST(KernelModelCpu, VecLoadsAndStoresAlignedVectors) {
  alignas(32) float in[8] = {1, 2, 3, 4, 5, 6, 7, 8}, out[8] = {};
  auto v = kernel::vec<float, 8>::load(in);
  v[3] = -1;
  v.store(out);
  EXPECT_EQ(out[3], -1);
  EXPECT_EQ(out[7], 8);
  static_assert(alignof(kernel::vec<float, 4>) == 16);
}

TEST(KernelModelCpu, DiagonalFragmentSumsDiagonalProducts) {
  check_diagonal_products(Device::cpu(), [](Queue& q, const auto& k) { run_diagonal_check_cpu(q, k); });
}

TEST(KernelModelCpu, DividerDividesByLaunchTimeDivisors) {
  check_divider(Device::cpu(),
                [](Queue& q, std::int64_t groups, const auto& k) { run_divider_check_cpu(q, groups, k); });
}

TEST(KernelModelCpu, EmptyAndNegativeRanges) {
  Queue q;
  kernel::cpu::launch(q, kernel::Range{0, 1, 1}, ModelCheck{nullptr});   // nothing to run
  EXPECT_PORTKERN_ERROR(kernel::cpu::launch(q, kernel::Range{-1, 1, 1}, ModelCheck{nullptr}), "groups");
}

}  // namespace
}  // namespace portkern::testing
