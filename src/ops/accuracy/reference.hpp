// accuracy's reference: the definition, an exact count, one row at a time.
#pragma once

#include <cstdint>
#include <vector>

namespace portkern::ops::accuracy_impl {

inline int reference(std::int64_t rows, std::int64_t classes, std::int64_t top_k, const std::vector<float>& scores,
                     const std::vector<int>& labels) {
  int count = 0;
  for (std::int64_t r = 0; r < rows; ++r) {
    const std::int64_t y = labels[std::size_t(r)];
    if (y < 0 || y >= classes) continue;
    const float* row = scores.data() + r * classes;
    const float s = row[y];
    std::int64_t rank = 0;
    for (std::int64_t c = 0; c < classes; ++c) rank += row[c] > s || (row[c] == s && c <= y);
    count += rank <= top_k;
  }
  return count;
}

}  // namespace portkern::ops::accuracy_impl
