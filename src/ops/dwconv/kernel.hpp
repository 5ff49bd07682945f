// The portable dwconv kernel. A group of 32 x 4 items owns a 32 x 32 tile of the output plane of every
// output channel of one input channel (flat group index -> (image, input channel, tile), decoded once per
// group). Item (x, y) computes column x of rows 8y .. 8y+7 of the tile: it walks the 8 + k - 1 input rows
// that feed them once, loads the k taps of each (coalesced across x; out-of-image taps are 0) and adds
// them into every output row that uses that input row (register reuse: (8 + k - 1) * k loads for 8 * k * k
// multiply-adds). For k <= 3 the item keeps its taps in registers for all m output channels; for larger k
// the m output channels reuse the tile through the cache (L1 on CUDA). The weights of the current channel
// are uniform values (registers on CUDA). Kc = 1, 3, 5 are unrolled; Kc = 0 is the generic k.
#pragma once

#include <cstdint>

#include "portkern/kernel/model.hpp"
#include "portkern/runtime/queue.hpp"
#include "portkern/ops/dwconv.hpp"

namespace portkern::ops::dwconv_impl {

struct Params {
  std::int64_t channels, height, width, out_height, out_width;
  int multiplier, k, pad;
  std::int64_t tiles_x, tiles_y;   // output tiles per plane
};

constexpr int tile = 32, item_rows = 8, items_y = tile / item_rows;

inline Params make_params(const DwconvShape& s) {
  Params p{s.channels, s.height, s.width, s.out_height(), s.out_width(), s.multiplier, s.kernel, s.pad, 0, 0};
  p.tiles_x = (p.out_width + tile - 1) / tile;
  p.tiles_y = (p.out_height + tile - 1) / tile;
  return p;
}

template <int Kc>
struct DwconvKernel {
  using group_shape = kernel::Shape<tile, items_y>;
  static constexpr int max_k = Kc > 0 ? Kc : 1;

  Params p;
  const float* in;
  const float* weight;
  const float* bias;
  float* out;

  template <class Group>
  PORTKERN_KERNEL void operator()(Group& g) const {
    const int k = Kc > 0 ? Kc : p.k;
    const std::int64_t tiles = p.tiles_x * p.tiles_y;
    const std::int64_t plane = g.x() / tiles, t = g.x() % tiles;   // plane = n * C + input channel
    const std::int64_t ty = t / p.tiles_x, tx = t % p.tiles_x;
    const std::int64_t c_in = plane % p.channels;
    const float* src = in + plane * p.height * p.width;
    const std::int64_t plane_out = p.out_height * p.out_width;
    const std::int64_t oc0 = plane * p.multiplier;   // = n * C*m + c_in * m
    if constexpr (Kc > 0 && Kc <= 3) {
      // Small windows: the item loads its (8 + k - 1) x k taps once and every output channel of this input
      // channel reuses them from registers. (With the channel loop outside, as below, the stores to `out`
      // may alias `in` for the compiler, so the taps were loaded again per channel: 1.13-1.14x the native
      // twin's time at k = 3, m >= 2. At k = 5 the taps would take 60 registers: the loop below wins.)
      g.for_each_item([&](kernel::Item item) {
        const std::int64_t ox = tx * tile + item.x;
        const std::int64_t oy0 = ty * tile + std::int64_t(item.y) * item_rows;
        if (ox >= p.out_width || oy0 >= p.out_height) return;
        const std::int64_t ix0 = ox - p.pad;
        float v[item_rows + Kc - 1][Kc];
        PORTKERN_UNROLL
        for (int r = 0; r < item_rows + Kc - 1; ++r) {
          const std::int64_t iy = oy0 - p.pad + r;
          const bool row_ok = iy >= 0 && iy < p.height;
          const float* row = src + iy * p.width + ix0;
          PORTKERN_UNROLL
          for (int j = 0; j < Kc; ++j) v[r][j] = row_ok && ix0 + j >= 0 && ix0 + j < p.width ? row[j] : 0.f;
        }
        for (int mo = 0; mo < p.multiplier; ++mo) {
          const std::int64_t oc = c_in * p.multiplier + mo;
          const float* wc = weight + oc * Kc * Kc;
          float acc[item_rows];
          const float b = bias ? bias[oc] : 0.f;
          PORTKERN_UNROLL
          for (int o = 0; o < item_rows; ++o) acc[o] = b;
          PORTKERN_UNROLL
          for (int i = 0; i < Kc; ++i)
            PORTKERN_UNROLL
            for (int j = 0; j < Kc; ++j) {
              const float w = wc[i * Kc + j];
              PORTKERN_UNROLL
              for (int o = 0; o < item_rows; ++o) acc[o] += w * v[o + i][j];
            }
          float* col = out + (oc0 + mo) * plane_out + oy0 * p.out_width + ox;
          PORTKERN_UNROLL
          for (int o = 0; o < item_rows; ++o)
            if (oy0 + o < p.out_height) col[o * p.out_width] = acc[o];
        }
      });
      return;
    }
    for (int mo = 0; mo < p.multiplier; ++mo) {
      const std::int64_t oc = c_in * p.multiplier + mo;
      const float* wc = weight + oc * k * k;
      float w[max_k][max_k];
      if constexpr (Kc > 0) {
        PORTKERN_UNROLL
        for (int i = 0; i < Kc; ++i)
          PORTKERN_UNROLL
          for (int j = 0; j < Kc; ++j) w[i][j] = wc[i * Kc + j];
      }
      const float b = bias ? bias[oc] : 0.f;
      float* dst = out + (oc0 + mo) * plane_out;
      g.for_each_item([&](kernel::Item item) {
        const std::int64_t ox = tx * tile + item.x;
        const std::int64_t oy0 = ty * tile + std::int64_t(item.y) * item_rows;
        if (ox >= p.out_width || oy0 >= p.out_height) return;
        float acc[item_rows];
        PORTKERN_UNROLL
        for (int r = 0; r < item_rows; ++r) acc[r] = b;
        const std::int64_t ix0 = ox - p.pad;
        if constexpr (Kc > 0) {
          bool col_ok[Kc];
          PORTKERN_UNROLL
          for (int j = 0; j < Kc; ++j) col_ok[j] = ix0 + j >= 0 && ix0 + j < p.width;
          PORTKERN_UNROLL
          for (int r = 0; r < item_rows + Kc - 1; ++r) {
            const std::int64_t iy = oy0 - p.pad + r;
            const bool row_ok = iy >= 0 && iy < p.height;
            const float* row = src + iy * p.width + ix0;
            float v[Kc];
            PORTKERN_UNROLL
            for (int j = 0; j < Kc; ++j) v[j] = row_ok && col_ok[j] ? row[j] : 0.f;
            PORTKERN_UNROLL
            for (int o = 0; o < item_rows; ++o) {
              const int i = r - o;   // compile-time after unrolling
              if (i >= 0 && i < Kc) {
                PORTKERN_UNROLL
                for (int j = 0; j < Kc; ++j) acc[o] += w[i][j] * v[j];
              }
            }
          }
        } else {
          for (int r = 0; r < item_rows + k - 1; ++r) {
            const std::int64_t iy = oy0 - p.pad + r;
            if (iy < 0 || iy >= p.height) continue;
            const float* row = src + iy * p.width + ix0;
            for (int j = 0; j < k; ++j) {
              if (ix0 + j < 0 || ix0 + j >= p.width) continue;
              const float v = row[j];
              PORTKERN_UNROLL
              for (int o = 0; o < item_rows; ++o) {
                const int i = r - o;
                if (i >= 0 && i < k) acc[o] += wc[i * k + j] * v;
              }
            }
          }
        }
        float* col = dst + oy0 * p.out_width + ox;
        PORTKERN_UNROLL
        for (int o = 0; o < item_rows; ++o)
          if (oy0 + o < p.out_height) col[o * p.out_width] = acc[o];
      });
    }
  }
};

// The launch sequence, written once over the back end.
template <class Backend>
void run(Queue& queue, const DwconvShape& s, const float* in, const float* weight, const float* bias, float* out) {
  const Params p = make_params(s);
  const kernel::Range groups{s.batch * s.channels * p.tiles_x * p.tiles_y};
  switch (s.kernel) {
    case 1: return Backend::launch(queue, groups, DwconvKernel<1>{p, in, weight, bias, out});
    case 3: return Backend::launch(queue, groups, DwconvKernel<3>{p, in, weight, bias, out});
    case 5: return Backend::launch(queue, groups, DwconvKernel<5>{p, in, weight, bias, out});
    default: return Backend::launch(queue, groups, DwconvKernel<0>{p, in, weight, bias, out});
  }
}

}  // namespace portkern::ops::dwconv_impl
