// flip's reference: the definition, one element at a time over the original (unmerged) shape.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace portkern::ops::flip_impl {

template <class T>
std::vector<T> reference(std::span<const std::int64_t> shape, std::span<const int> dims, std::span<const T> in) {
  std::vector<T> out(in.size());
  const int rank = int(shape.size());
  std::vector<std::int64_t> index(rank, 0);
  for (std::size_t linear = 0; linear < in.size(); ++linear) {
    std::int64_t source = 0;
    for (int k = 0; k < rank; ++k) {
      bool flipped = false;
      for (int d : dims) flipped = flipped || d == k;
      source = source * shape[k] + (flipped ? shape[k] - 1 - index[k] : index[k]);
    }
    out[linear] = in[std::size_t(source)];
    for (int k = rank - 1; k >= 0 && ++index[k] == shape[k]; --k) index[k] = 0;   // next index, last fastest
  }
  return out;
}

}  // namespace portkern::ops::flip_impl
