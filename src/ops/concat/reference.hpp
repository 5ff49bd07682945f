// concat's reference: the definition, one element at a time.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace portkern::ops::concat_impl {

inline std::vector<float> reference(std::int64_t outer, std::int64_t mid1, std::int64_t mid2, std::int64_t inner,
                                    std::span<const float> in1, std::span<const float> in2) {
  std::vector<float> out(std::size_t(outer * (mid1 + mid2) * inner));
  std::size_t o = 0;
  for (std::int64_t a = 0; a < outer; ++a)
    for (std::int64_t b = 0; b < mid1 + mid2; ++b)
      for (std::int64_t e = 0; e < inner; ++e)
        out[o++] = b < mid1 ? in1[std::size_t((a * mid1 + b) * inner + e)]
                            : in2[std::size_t((a * mid2 + b - mid1) * inner + e)];
  return out;
}

}  // namespace portkern::ops::concat_impl
