// dense_embedding as the kernels see it: the rows to process and how they are grouped.
#pragma once

#include <cstdint>

namespace portkern::ops::dense_embedding_impl {

struct Plan {
  std::int64_t batches = 0, dim = 0;
  std::int64_t first_row = 0, last_row = 0;   // offsets[0] / D, offsets[B] / D
  std::int64_t rows_per_group = 4;            // a multiple of 4, <= 64
  bool vector = false;                        // D % 4 == 0 and input, dense, out 16-byte aligned
};

inline Plan make_plan(std::int64_t batches, std::int64_t dim, std::int64_t first, std::int64_t last, bool aligned) {
  Plan plan;
  plan.batches = batches, plan.dim = dim, plan.first_row = first / dim, plan.last_row = last / dim;
  std::int64_t steps = (8192 + 4 * dim - 1) / (4 * dim);   // ~8K elements per group
  plan.rows_per_group = 4 * (steps < 1 ? 1 : steps > 16 ? 16 : steps);
  plan.vector = dim % 4 == 0 && aligned;
  return plan;
}

}  // namespace portkern::ops::dense_embedding_impl
