// clink: the hidden-5 LSTM + linear head of HeCBench `clink` (the CLINK EEG model, seed 004), inference over
// N independent sequences of T steps, input size 1, f32. Gate order (i, f, o, g); h, c start at zero:
//
//   a_k = in_w[k] x_t + rec_w[k] h + bias[k]      (k = 0..3; in_w[k], bias[k]: 5-vectors, rec_w[k]: 5x5, out x in)
//   i = sigmoid(a_0), f = sigmoid(a_1), o = sigmoid(a_2), g = tanh(a_3)
//   c <- f c + i g,   h <- o tanh(c),   y_t = out_b + out_w . h
//
// == nn.LSTM(1, 5, batch_first=True) + nn.Linear(5, 1) with the gate rows reordered to (i, f, g, o),
// bias_ih = bias and bias_hh = 0.
//
// Latency/compute-bound: a sequential recurrence with only N items of parallelism; 315 flops per sequence
// and step (sigmoid and tanh counted as 1 flop each: 100 recurrent + 20 input MACs, 20 bias adds, 15 sigmoids,
// 10 tanh, 25 for the cell and h updates, 10 for the head), 8 bytes per sequence and step (x read, y written).
// Decisions:
// - one item per sequence (state in registers), as HeCBench; but x and y move through a group-local tile of
//   64 steps x 32 sequences, loaded and stored row-wise (coalesced), where HeCBench's threads each walk
//   their own row (32 cache lines per warp access). The tile is updated in place (x_t read, y_t written);
// - the 146 weights are passed by value (ClinkWeights, the spec's file order) into the kernel's arguments:
//   on CUDA they sit in the constant bank and are free operands of the FMAs, not 146 loads per step;
// - sigmoid(a) = 1 / (1 + e^-a) (overflow of e^-a gives 0, the right limit); accurate expf/tanhf/division,
//   no fast math;
// - N and T of any size (partial tiles are bounds-checked); N = 0 or T = 0 returns at once.
#pragma once

#include <cstdint>
#include <span>

#include "portkern/runtime/queue.hpp"

namespace portkern::ops {

// The weights in the order of HeCBench's weight_{1,2}.hpp files (146 floats).
struct ClinkWeights {
  float in_w[4][5];       // [gate][unit]
  float rec_w[4][5][5];   // [gate][out unit j][in unit i]
  float bias[4][5];       // [gate][unit]: the one bias (PyTorch's bias_ih; bias_hh = 0)
  float out_w[5];
  float out_b;
};
static_assert(sizeof(ClinkWeights) == 146 * sizeof(float));

// The weights from 146 floats in file order (error unless values.size() == 146).
ClinkWeights clink_weights(std::span<const float> values);

// x, y: the queue's device memory, [sequences][steps] row-major floats each, not overlapping.
void clink(Queue& queue, std::int64_t sequences, std::int64_t steps, const ClinkWeights& weights, const float* x,
           float* y);

}  // namespace portkern::ops
