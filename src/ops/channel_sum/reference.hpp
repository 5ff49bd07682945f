// channel_sum's reference: exact, one element at a time, accumulated in uint64 (wrapping like torch's int64).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace portkern::ops::channel_sum_impl {

inline void reference(bool nhwc, std::int64_t n, std::int64_t c, std::int64_t hw, std::span<const std::int32_t> in,
                      std::vector<std::int64_t>& sum, std::vector<std::int64_t>& sumsq) {
  std::vector<unsigned long long> s(std::size_t(c), 0), q(std::size_t(c), 0);
  for (std::int64_t b = 0; b < n; ++b)
    for (std::int64_t ch = 0; ch < c; ++ch)
      for (std::int64_t p = 0; p < hw; ++p) {
        const std::int64_t x = in[std::size_t(nhwc ? (b * hw + p) * c + ch : (b * c + ch) * hw + p)];
        s[std::size_t(ch)] += static_cast<unsigned long long>(x);
        q[std::size_t(ch)] += static_cast<unsigned long long>(x * x);
      }
  sum.assign(s.begin(), s.end());
  sumsq.assign(q.begin(), q.end());
}

}  // namespace portkern::ops::channel_sum_impl
