// How attention splits its rows: `chunks` chunks of `chunk_rows` rows (a multiple of 8, at most 256, the
// last chunk possibly shorter), about 512 chunks when n is large (about 4 groups per H100 SM, all
// resident at once), so the workspace of partial sums is chunks * d floats (~ n * d / 128) plus 2 * chunks.
#pragma once

#include <cstdint>

#include "portkern/kernel/model.hpp"

namespace portkern::ops::attention_impl {

struct Plan {
  std::int64_t n = 0, d = 0;
  int chunk_rows = 8;
  std::int64_t chunks = 0;
  // Workspace layout (floats): partial[chunks][d], then chunk_max[chunks], then chunk_sum[chunks].
  PORTKERN_INLINE std::int64_t partial_offset() const { return 0; }
  PORTKERN_INLINE std::int64_t max_offset() const { return chunks * d; }
  PORTKERN_INLINE std::int64_t sum_offset() const { return chunks * d + chunks; }
  PORTKERN_INLINE std::int64_t workspace_floats() const { return chunks * d + 2 * chunks; }
  // The rows of chunk b (chunk_rows but for the last chunk).
  PORTKERN_INLINE int rows_of(std::int64_t b) const {
    const std::int64_t left = n - b * chunk_rows;
    return int(left < chunk_rows ? left : chunk_rows);
  }
};

constexpr int max_chunk_rows = 256;   // the chunk kernel's group size: one score per item
constexpr std::int64_t target_chunks = 512;

inline Plan make_plan(std::int64_t n, std::int64_t d) {
  Plan p;
  p.n = n;
  p.d = d;
  std::int64_t rows = (n + target_chunks - 1) / target_chunks;
  rows = (rows + 7) / 8 * 8;
  if (rows < 8) rows = 8;
  if (rows > max_chunk_rows) rows = max_chunk_rows;
  p.chunk_rows = int(rows);
  p.chunks = (n + rows - 1) / rows;
  return p;
}

// The CPU's split: a few chunks per thread (about 8), as long as the rows allow (at most 256 per chunk), so
// that the per-chunk work (the softmax of its scores, its partial row written and combined) is spread over
// many rows; never more chunks than make_plan's, so the workspace it sizes is enough.
inline Plan make_cpu_plan(std::int64_t n, std::int64_t d, int threads) {
  Plan p = make_plan(n, d);
  const std::int64_t target = 8 * std::int64_t(threads < 1 ? 1 : threads);
  std::int64_t rows = (n + target - 1) / target;
  rows = (rows + 7) / 8 * 8;
  if (rows < p.chunk_rows) rows = p.chunk_rows;
  if (rows > max_chunk_rows) rows = max_chunk_rows;
  p.chunk_rows = int(rows);
  p.chunks = (n + rows - 1) / rows;
  return p;
}

}  // namespace portkern::ops::attention_impl
