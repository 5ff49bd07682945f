// The expected output of ModelCheck, and the comparison both back ends' tests use.
#pragma once

#include "model_kernels.hpp"
#include "testing.hpp"

namespace portkern::testing {

inline void expect_model_check(const std::vector<int>& out, const kernel::Range& groups) {
  constexpr int size = ModelCheck::size;
  using S = ModelCheck::group_shape;
  for (std::int64_t gz = 0; gz < groups.z; ++gz)
    for (std::int64_t gy = 0; gy < groups.y; ++gy)
      for (std::int64_t gx = 0; gx < groups.x; ++gx) {
        const std::int64_t group = (gz * groups.y + gy) * groups.x + gx;
        for (int linear = 0; linear < size; ++linear) {
          const int x = linear % S::x, y = (linear / S::x) % S::y, z = linear / (S::x * S::y);
          const int* o = out.data() + (group * size + linear) * 4;
          ASSERT_EQ(o[0], int(group * 1000 + size - 1 - linear)) << "group " << group << " item " << linear;
          ASSERT_EQ(o[1], -int(group * 1000 + (linear + 1) % size)) << "group " << group << " item " << linear;
          ASSERT_EQ(o[2], x + 10 * y + 100 * z);
          ASSERT_EQ(o[3], int(gx + 10 * gy + 100 * gz));
        }
      }
}

}  // namespace portkern::testing
