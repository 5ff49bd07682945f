// logprob: per-token log-probability and per-sequence log-likelihood of a language model's logits, as in
// FasterTransformer's log_probs kernels (HeCBench `logprob`, seed 004).
//
//   for b < batch, t < lengths[b] - 1, with r = logits[b][t][0 .. vocab):
//     log_probs[b][t] = r[ids[b][t + 1]] - max(r) - log(sum_v exp(r[v] - max(r)) + 1e-9)
//     cum_log_probs[b] = sum over those t of log_probs[b][t]
//   log_probs[b][t] = 0 for lengths[b] - 1 <= t < steps - 1 (those rows are not read).
//
// Equals F.log_softmax(logits[:, :-1, :vocab], -1).gather(-1, ids[:, 1:, None]) masked to t < len - 1
// (the 1e-9 of the original is kept; it is below float resolution of any realistic sum).
// Memory-bound: reads each counted row's vocab floats once (one pass, online max and rescaled sum: the
// HeCBench kernel reads every row twice, once for the max and once for the sum), writes batch * steps floats.
//
// Decisions and the original's flaws fixed:
// - lengths are checked on the host (a copy of `batch` ints, one queue sync per call): every length must be
//   in [1, steps]. The 2024 original drew random lengths that could exceed T and read past the tensor.
// - ids[b][t + 1] outside [0, vocab) gives NaN for that token (and its sequence sum), never an out-of-bounds
//   read; ids are device data and are not checked on the host.
// - padded_vocab may be any value >= vocab; 16-byte vector loads are used when logits is 16-byte aligned and
//   padded_vocab % 4 == 0 (checked once per call), scalar loads otherwise.
// - NaN in a counted row propagates to its log-probability, +inf gives NaN (as log_softmax does).
#pragma once

#include <cstdint>

#include "portkern/runtime/queue.hpp"

namespace portkern::ops {

// batch >= 0 (0 returns at once), steps >= 1, 1 <= vocab <= padded_vocab.
// logits: [batch][steps][padded_vocab] floats; ids: [batch][steps] ints; lengths: [batch] ints in [1, steps];
// log_probs: [batch][steps - 1] floats (out); cum_log_probs: [batch] floats (out). All the queue's device
// memory; log_probs must not be null even when steps == 1 (it is then not written).
void logprob(Queue& queue, std::int64_t batch, std::int64_t steps, std::int64_t vocab, std::int64_t padded_vocab,
             const float* logits, const int* ids, const int* lengths, float* log_probs, float* cum_log_probs);

}  // namespace portkern::ops
