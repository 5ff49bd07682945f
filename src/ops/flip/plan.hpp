// The flip as the kernels see it. Adjacent dimensions that are both flipped, or both not, merge into one
// (reversing (i, j) in an a x b block is reversing i * b + j in a block of a * b), and extents of 1 drop out,
// so 1024^3 flipped in all three dimensions is one reversal of 2^30 elements. What remains is `rows` rows of
// `length` contiguous elements (the last merged dimension); a row's source row comes from the outer ones.
#pragma once

#include <cstdint>
#include <span>

namespace portkern::ops::flip_impl {

struct Plan {
  static constexpr int max_rank = 8;
  int outer_rank = 0;                    // merged dimensions before the last
  std::int64_t outer[max_rank] = {};     // their extents, outermost first
  bool outer_flipped[max_rank] = {};
  std::int64_t rows = 1, length = 1;     // rows = product of `outer`; length = the last merged extent
  bool last_flipped = false;
  std::int64_t numel() const { return rows * length; }
};

// Assumes shape and dims were checked (api.cpp).
inline Plan make_plan(std::span<const std::int64_t> shape, std::span<const int> dims) {
  std::int64_t extent[Plan::max_rank];
  bool flipped[Plan::max_rank];
  int rank = 0;
  for (int k = 0; k < int(shape.size()); ++k) {
    bool f = false;
    for (int d : dims) f = f || d == k;
    if (shape[k] == 1) continue;
    if (rank > 0 && flipped[rank - 1] == f) {
      extent[rank - 1] *= shape[k];
    } else {
      extent[rank] = shape[k];
      flipped[rank] = f;
      ++rank;
    }
  }
  Plan plan;
  if (rank == 0) return plan;   // a single element
  plan.length = extent[rank - 1];
  plan.last_flipped = flipped[rank - 1];
  plan.outer_rank = rank - 1;
  for (int k = 0; k + 1 < rank; ++k) {
    plan.outer[k] = extent[k];
    plan.outer_flipped[k] = flipped[k];
    plan.rows *= extent[k];
  }
  return plan;
}

// The source row of output row `row` (mixed-radix digits over the outer extents, flipped where marked).
#if defined(__CUDACC__)
__host__ __device__
#endif
inline std::int64_t source_row(const Plan& plan, std::int64_t row) {
  std::int64_t source = 0, stride = 1;
  for (int k = plan.outer_rank - 1; k >= 0; --k) {
    const std::int64_t i = row % plan.outer[k];
    row /= plan.outer[k];
    source += (plan.outer_flipped[k] ? plan.outer[k] - 1 - i : i) * stride;
    stride *= plan.outer[k];
  }
  return source;
}

}  // namespace portkern::ops::flip_impl
