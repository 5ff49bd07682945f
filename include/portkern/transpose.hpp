// Out-of-place matrix transpose, row-major: out (cols x rows) = in (rows x cols)^T.
// Threads: callable by any number of threads with one shared queue or their own (runtime/queue.hpp).
#pragma once

#include <cstdint>

#include "portkern/runtime/queue.hpp"

namespace portkern {

// in: rows x cols with leading dimension ld_in >= cols; out: cols x rows with ld_out >= rows. Both are
// memory of the queue's device. rows == 0 or cols == 0 returns at once.
void transpose(Queue& queue, std::int64_t rows, std::int64_t cols, const float* in, std::int64_t ld_in, float* out,
               std::int64_t ld_out);

}  // namespace portkern
