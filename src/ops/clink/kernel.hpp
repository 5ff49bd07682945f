// The portable clink kernel. A group is 32 sequences (one item each, h and c in a private array) and walks
// time in chunks of 64 steps: load the chunk's x for its 32 rows into a local tile [64][33] (items take
// consecutive steps of one row: coalesced; the pad column keeps both the row-wise and the column-wise
// accesses free of bank conflicts), run the 64 steps per item overwriting x_t by y_t in the tile, store the
// tile row-wise. The one-step function is shared with the native twin.
#pragma once

#include <cstdint>

#include "portkern/kernel/math.hpp"
#include "portkern/kernel/model.hpp"
#include "portkern/kernel/private_array.hpp"
#include "portkern/ops/clink.hpp"

namespace portkern::ops::clink_impl {

PORTKERN_INLINE float sigmoid(float a) { return 1.f / (1.f + kernel::exp(-a)); }

// One LSTM step and the head: updates h and c, returns y_t.
PORTKERN_INLINE float step(const ClinkWeights& w, float x, float (&h)[5], float (&c)[5]) {
  float a[4][5];
  PORTKERN_UNROLL
  for (int k = 0; k < 4; ++k) {
    PORTKERN_UNROLL
    for (int j = 0; j < 5; ++j) {
      float s = w.bias[k][j] + w.in_w[k][j] * x;
      PORTKERN_UNROLL
      for (int i = 0; i < 5; ++i) s += w.rec_w[k][j][i] * h[i];
      a[k][j] = s;
    }
  }
  float y = w.out_b;
  PORTKERN_UNROLL
  for (int j = 0; j < 5; ++j) {
    const float ig = sigmoid(a[0][j]), fg = sigmoid(a[1][j]), og = sigmoid(a[2][j]), gg = kernel::tanh(a[3][j]);
    c[j] = fg * c[j] + ig * gg;
    h[j] = og * kernel::tanh(c[j]);
    y += w.out_w[j] * h[j];
  }
  return y;
}

template <int Rows = 32, int Chunk = 64>
struct ClinkKernel {
  using group_shape = kernel::Shape<Rows>;
  static_assert((Chunk & (Chunk - 1)) == 0 && Chunk % Rows == 0, "the tile copy assumes these");
  ClinkWeights w;
  std::int64_t sequences, steps;
  const float* x;
  float* y;

  template <class Group>
  PORTKERN_KERNEL void operator()(Group& g) const {
    auto& tile = g.template local<float[Chunk][Rows + 1], 0>();
    kernel::private_array<float, 10, Group> state;   // h[0..4], c[0..4]
    const std::int64_t row0 = g.x() * Rows;
    const int rows = int(sequences - row0 < Rows ? sequences - row0 : Rows);
    g.for_each_item([&](kernel::Item item) {
      PORTKERN_UNROLL
      for (int k = 0; k < 10; ++k) state(item, k) = 0.f;
    });
    for (std::int64_t t0 = 0; t0 < steps; t0 += Chunk) {
      const int len = int(steps - t0 < Chunk ? steps - t0 : Chunk);
      // Copy in: element l = e * Rows + item of the Rows x Chunk block is row l / Chunk, step l % Chunk.
      g.for_each_item([&](kernel::Item item) {
        PORTKERN_UNROLL
        for (int e = 0; e < Chunk; ++e) {
          const int l = e * Rows + item.x, r = l / Chunk, t = l % Chunk;
          if (r < rows && t < len) tile[t][r] = x[(row0 + r) * steps + t0 + t];
        }
      });
      g.barrier();
      // The time loop outside the items, one phase per step (h, c in the private array): the per-thread loop
      // on CUDA, the SIMD lanes on the CPU. Items past the last sequence step on the tile's unused column and
      // do not store, so that no call sits under a branch.
      for (int t = 0; t < len; ++t)
        g.for_each_item([&](kernel::Item item) {
          float h[5], c[5];
          PORTKERN_UNROLL
          for (int j = 0; j < 5; ++j) h[j] = state(item, j), c[j] = state(item, 5 + j);
          const float out = step(w, tile[t][item.x], h, c);
          if (item.x < rows) tile[t][item.x] = out;
          PORTKERN_UNROLL
          for (int j = 0; j < 5; ++j) state(item, j) = h[j], state(item, 5 + j) = c[j];
        });
      g.barrier();
      g.for_each_item([&](kernel::Item item) {
        PORTKERN_UNROLL
        for (int e = 0; e < Chunk; ++e) {
          const int l = e * Rows + item.x, r = l / Chunk, t = l % Chunk;
          if (r < rows && t < len) y[(row0 + r) * steps + t0 + t] = tile[t][r];
        }
      });
      g.barrier();   // the next chunk overwrites the tile
    }
  }
};

template <class Backend>
void run(Queue& queue, std::int64_t sequences, std::int64_t steps, const ClinkWeights& w, const float* x, float* y) {
  using Kernel = ClinkKernel<>;
  Backend::launch(queue, kernel::Range{(sequences + 31) / 32}, Kernel{w, sequences, steps, x, y});
}

}  // namespace portkern::ops::clink_impl
