// dense_embedding's reference in float64: out as the definition says over [offsets[0], offsets[B]), and
// `untouched` (the initial content of out) elsewhere.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace portkern::ops::dense_embedding_impl {

inline std::vector<double> reference(std::span<const std::int64_t> offsets, std::int64_t dim,
                                     std::span<const float> input, std::span<const float> dense,
                                     std::span<const float> untouched) {
  std::vector<double> out(untouched.begin(), untouched.end());
  for (std::size_t b = 0; b + 1 < offsets.size(); ++b)
    for (std::int64_t e = offsets[b]; e < offsets[b + 1]; ++e)
      out[std::size_t(e)] = double(input[std::size_t(e)]) + double(dense[b * std::size_t(dim) + std::size_t(e % dim)]);
  return out;
}

}  // namespace portkern::ops::dense_embedding_impl
