// The expected results of GroupCheck, computed on the host, for any device.
#pragma once

#include "group_kernels.hpp"
#include "testing.hpp"

namespace portkern::testing {

template <class Kernel>
void check_group_algorithms(const Device& device, const kernel::Range& groups,
                            void (*run)(Queue&, const kernel::Range&, const Kernel&)) {
  SCOPED_TRACE(device.name() + " groups " + std::to_string(groups.size()));
  Queue q(device);
  constexpr int size = Kernel::size;
  const std::int64_t n = groups.size();
  Buffer<int> sums(device, n), maxima(device, n), scans(device, n * size), counters(device, 6);
  q.fill(sums.data(), -1, sums.size());
  q.fill(maxima.data(), -1, maxima.size());
  q.fill(scans.data(), -1, scans.size());
  q.fill(counters.data(), 0, counters.size());
  const Kernel kernel{sums.data(), maxima.data(), scans.data(), counters.data()};
  run(q, groups, kernel);
  const auto s = sums.download(q), m = maxima.download(q), p = scans.download(q), c = counters.download(q);
  for (std::int64_t g = 0; g < n; ++g) {
    int prefix = 0;
    for (int i = 0; i < size; ++i) {
      prefix += int(g * 1000 + i + 1);
      ASSERT_EQ(p[g * size + i], prefix) << "scan, group " << g << " item " << i;
    }
    ASSERT_EQ(s[g], prefix) << "sum, group " << g;
    ASSERT_EQ(m[g], int(g * 1000 + size)) << "max, group " << g;
  }
  for (int r = 0; r < 5; ++r) EXPECT_EQ(c[r], int(n * ((size - r + 4) / 5))) << "counter " << r;
  EXPECT_EQ(c[5], int((n - 1) * 1000 + size));
}

}  // namespace portkern::testing
