// The kernel model and the transpose on a GPU.
#include "model_check.hpp"
#include "transpose_cases.hpp"

namespace portkern::testing {
namespace {

TEST(KernelModelCuda, GroupsItemsLocalAndPrivate) {
  PORTKERN_REQUIRE_GPU();
  for (kernel::Range groups : {kernel::Range{1, 1, 1}, kernel::Range{3, 2, 2}, kernel::Range{70, 3, 1}}) {
    Queue q(Device::cuda(0));
    const std::size_t count = std::size_t(groups.size()) * ModelCheck::size * 4;
    Buffer<int> out(q.device(), std::int64_t(count));
    q.fill(out.data(), -999999, count);
    run_model_check_cuda(q, groups, out.data());
    expect_model_check(out.download(q), groups);
  }
}

TEST(KernelModelCuda, DiagonalFragmentSumsDiagonalProducts) {
  PORTKERN_REQUIRE_GPU();
  check_diagonal_products(Device::cuda(0), [](Queue& q, const auto& k) { run_diagonal_check_cuda(q, k); });
}

TEST(KernelModelCuda, PackedGroupsAndDividers) {
  PORTKERN_REQUIRE_GPU();
  check_divider(Device::cuda(0),
                [](Queue& q, std::int64_t groups, const auto& k) { run_divider_check_cuda(q, groups, k); });
}

TEST(TransposeCuda, OddShapesAndPaddedLeadingDimensions) {
  PORTKERN_REQUIRE_GPU();
  check_transpose_shapes(Device::cuda(0));
}

TEST(TransposeCuda, BadArgumentsAreErrors) {
  PORTKERN_REQUIRE_GPU();
  check_transpose_errors(Device::cuda(0));
}

}  // namespace
}  // namespace portkern::testing
