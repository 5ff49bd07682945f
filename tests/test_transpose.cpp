#include "transpose_cases.hpp"

namespace portkern::testing {
namespace {

TEST(TransposeCpu, OddShapesAndPaddedLeadingDimensions) { check_transpose_shapes(Device::cpu()); }
TEST(TransposeCpu, BadArgumentsAreErrors) { check_transpose_errors(Device::cpu()); }

}  // namespace
}  // namespace portkern::testing
