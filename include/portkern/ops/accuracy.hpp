// accuracy: top-k classification accuracy count, as Caffe2's Accuracy op (HeCBench `accuracy`, seed 004).
//
//   for row r with y = labels[r] and s = scores[r][y]:
//     rank(r) = #{c : scores[r][c] > s} + #{c <= y : scores[r][c] == s}   (ties rank ahead only from lower
//                                                                          columns; the label counts itself)
//   count = #{r : rank(r) <= top_k}            (an int; the ratio count / rows is the caller's)
//
// Equals ((X > s[:, None]) | ((X == s[:, None]) & (arange(D) <= y[:, None]))).sum(1).le(k).sum() exactly.
// Memory-bound: reads the scores once (rows * classes * 4 bytes) plus the labels; one int written.
//
// Decisions and the original's flaws fixed:
// - a label outside [0, classes) makes its row count as wrong (no read of scores[r][label]); labels are
//   device data and are not checked on the host.
// - NaN: comparisons with NaN are false, as in the PyTorch composition above (a NaN label score gives rank 0,
//   counted as correct; a NaN elsewhere never ranks ahead).
// - count is zeroed by the call (a fill on the queue, as the original's memset) and then incremented with
//   one atomic add per correct row; rows == 0 sets count = 0.
// - 16-byte vector loads when scores is 16-byte aligned and classes % 4 == 0 (checked once per call).
#pragma once

#include <cstdint>

#include "portkern/runtime/queue.hpp"

namespace portkern::ops {

// rows >= 0, classes >= 1, top_k in [1, classes]. scores: [rows][classes] floats; labels: [rows] ints;
// count: one int (out). All the queue's device memory.
void accuracy(Queue& queue, std::int64_t rows, std::int64_t classes, std::int64_t top_k, const float* scores,
              const int* labels, int* count);

}  // namespace portkern::ops
