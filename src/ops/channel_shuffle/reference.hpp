// channel_shuffle's reference: the definition through the (groups, K) -> (K, groups) transpose, one element
// at a time.
#pragma once

#include <cstdint>
#include <vector>

namespace portkern::ops::channel_shuffle_impl {

template <class T>
std::vector<T> reference(bool nhwc, std::int64_t n, std::int64_t c, std::int64_t hw, std::int64_t groups,
                         const std::vector<T>& in) {
  std::vector<T> out(in.size());
  const std::int64_t k = c / groups;
  for (std::int64_t b = 0; b < n; ++b)
    for (std::int64_t g = 0; g < groups; ++g)
      for (std::int64_t j = 0; j < k; ++j) {
        const std::int64_t ci = g * k + j, co = j * groups + g;   // (g, j) of the input goes to (j, g)
        for (std::int64_t p = 0; p < hw; ++p) {
          const std::int64_t src = nhwc ? (b * hw + p) * c + ci : (b * c + ci) * hw + p;
          const std::int64_t dst = nhwc ? (b * hw + p) * c + co : (b * c + co) * hw + p;
          out[std::size_t(dst)] = in[std::size_t(src)];
        }
      }
  return out;
}

}  // namespace portkern::ops::channel_shuffle_impl
