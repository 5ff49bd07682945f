// The portable dwconv kernel. A group of 32 x 4 items owns a 32 x 32 tile of the output plane of every
// output channel of one input channel (flat group index -> (image, input channel, tile), decoded once per
// group). Item (x, y) computes column x of rows 8y .. 8y+7 of the tile: it walks the 8 + k - 1 input rows
// that feed them once, loads the k taps of each (coalesced across x; out-of-image taps are 0) and adds
// them into every output row that uses that input row (register reuse: (8 + k - 1) * k loads for 8 * k * k
// multiply-adds). For k <= 3 the item keeps its taps in registers for all m output channels; for larger k
// the m output channels reuse the tile through the cache (L1 on CUDA). The weights of the current channel
// are uniform values (registers on CUDA). Kc = 1, 3, 5 are unrolled; Kc = 0 is the generic k.
//
// With SplitTiles a tile is one of two uniform cases: interior (every tap of every item in the image, every
// output inside the plane: no checks) or edge (CUDA splits at k = 5, where it also lowers ptxas's registers
// from 109 to 80; at k <= 3 and the generic k the two cases in one kernel took more registers than the
// checked code alone, 56 -> 64 at k = 1, so CUDA keeps one checked case there). The CPU (items are SIMD
// lanes) splits at every k and takes tiles of 16 x 8 outputs (16 items, one AVX-512 vector, of 8 rows; taller
// tiles leave more of the plane in edge tiles), a phase per output channel, and stages its edge tiles
// (StageEdges) so that they run the interior tile's code too.
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>

#include "portkern/kernel/model.hpp"
#include "portkern/runtime/queue.hpp"
#include "portkern/ops/dwconv.hpp"

namespace portkern::ops::dwconv_impl {

struct Params {
  std::int64_t channels, height, width, out_height, out_width;
  int multiplier, k, pad;
  std::int64_t tiles_x, tiles_y;   // output tiles per plane
};

// CUDA's tile (and the native twin's): 32 x 32 outputs, 32 x 4 items of 8 rows each.
constexpr int tile = 32, item_rows = 8, items_y = tile / item_rows;

inline Params make_params(const DwconvShape& s, int tile_w = tile, int tile_h = tile) {
  Params p{s.channels, s.height, s.width, s.out_height(), s.out_width(), s.multiplier, s.kernel, s.pad, 0, 0};
  p.tiles_x = (p.out_width + tile_w - 1) / tile_w;
  p.tiles_y = (p.out_height + tile_h - 1) / tile_h;
  return p;
}

// v clamped to [lo, hi], as an int (for bounds that lanes compare against in 32 bits).
PORTKERN_INLINE int clamp_int(std::int64_t v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : int(v); }

// f(j) for j = 0 .. N - 1 as compile-time constants, without a loop: GCC unswitched a loop of one iteration
// (k = 1) before unrolling it, and left the row loop rolled once its body called a tap functor, either of
// which kept the CPU's item loop from vectorising.
template <int N, class F>
PORTKERN_INLINE void each_tap(F&& f) {
  [&]<int... J>(std::integer_sequence<int, J...>) { (f(std::integral_constant<int, J>{}), ...); }(
      std::make_integer_sequence<int, N>{});
}

// Kc: the window (1, 3, 5 unrolled; 0: the plan's). Tiles of TX x (ItemsY * Rows) outputs, an item per column
// and ItemsY items per column, each of Rows rows. RegisterTaps: an item keeps its taps in registers for all
// the output channels of its input channel (the channel loop inside the phase) rather than a phase per
// channel that reloads them (from L1). StageEdges: an edge tile first copies its input window, zero-padded,
// into group-local memory (a phase per input row, whose bounds are uniform), and then runs the interior
// tile's phases on that copy: no bounds check per tap (the CPU's choice: its per-tap masks cost more than the
// taps, 1.8x the interior time at k = 5). SplitTiles: interior tiles are a case of their own (see the header).
template <int Kc, int TX = tile, int ItemsY = items_y, int Rows = item_rows, bool RegisterTaps = (Kc > 0 && Kc <= 3),
          bool StageEdges = false, bool SplitTiles = (Kc > 0 && !RegisterTaps)>
struct DwconvKernel {
  using group_shape = kernel::Shape<TX, ItemsY>;
  static constexpr int tile_w = TX, tile_h = ItemsY * Rows;
  static constexpr int max_k = Kc > 0 ? Kc : 1;
  // The staged window: tile_h + k - 1 rows of tile_w + k - 1 columns, rows padded to whole item rows.
  static constexpr int stage_h = tile_h + max_k - 1, stage_pitch = (tile_w + max_k - 1 + TX * ItemsY - 1) /
                                                                      (TX * ItemsY) * (TX * ItemsY);
  static_assert(!RegisterTaps || Kc > 0, "taps in registers need a window fixed at compile time");
  static_assert(!StageEdges || (Kc > 0 && !RegisterTaps && SplitTiles), "staging is for the phase-per-channel path");

  Params p;
  const float* in;
  const float* weight;
  const float* bias;
  float* out;

  // A tile is interior when all of its outputs exist and all the taps they read are in the image: a phase
  // without any bounds check (SplitTiles). Other tiles check rows (uniform per item row) and columns (per
  // item), or are staged (StageEdges).
  template <class Group>
  PORTKERN_KERNEL void operator()(Group& g) const {
    const int k = Kc > 0 ? Kc : p.k;
    const std::int64_t tiles = p.tiles_x * p.tiles_y;
    const std::int64_t plane = g.x() / tiles, t = g.x() % tiles;   // plane = n * C + input channel
    const std::int64_t ox0 = (t % p.tiles_x) * tile_w, oy0 = (t / p.tiles_x) * tile_h;
    const bool interior = ox0 + tile_w <= p.out_width && oy0 + tile_h <= p.out_height && ox0 >= p.pad &&
                          oy0 >= p.pad && ox0 + tile_w + k - 1 - p.pad <= p.width &&
                          oy0 + tile_h + k - 1 - p.pad <= p.height;
    if constexpr (SplitTiles) {
      if (interior) return tile_phases<false>(g, plane, ox0, oy0);
    }
    if constexpr (StageEdges) staged_tile(g, plane, ox0, oy0);
    else tile_phases<true>(g, plane, ox0, oy0);
  }

  template <class Group>
  PORTKERN_INLINE void staged_tile(Group& g, std::int64_t plane, std::int64_t ox0, std::int64_t oy0) const {
    constexpr int items = TX * ItemsY;
    auto& stage = g.template local<float[stage_h][stage_pitch], 0>();
    const float* src = in + plane * p.height * p.width + ox0 - p.pad;
    const int lo = clamp_int(p.pad - ox0, 0, stage_pitch);                // staged columns [lo, hi) are in
    const int hi = clamp_int(p.width + p.pad - ox0, 0, stage_pitch);      // the image
    for (int r = 0; r < stage_h; ++r) {
      const std::int64_t iy = oy0 - p.pad + r;
      float* to = stage[r];
      if (iy >= 0 && iy < p.height) {   // uniform
        const float* from = src + iy * p.width;
        g.for_each_item([&](kernel::Item item) {
          PORTKERN_UNROLL
          for (int t = 0; t < stage_pitch / items; ++t) {
            const int c = t * items + item.linear;
            to[c] = c >= lo && c < hi ? from[c] : 0.f;
          }
        });
      } else {
        g.for_each_item([&](kernel::Item item) {
          PORTKERN_UNROLL
          for (int t = 0; t < stage_pitch / items; ++t) to[t * items + item.linear] = 0.f;
        });
      }
    }
    g.barrier();
    const int cols = clamp_int(p.out_width - ox0, 0, tile_w);
    channel_phases<true>(g, plane, ox0, oy0, cols,
                         [&](kernel::Item item, int r, int j) { return stage[item.y * Rows + r][item.x + j]; });
    g.barrier();   // the next group of this thread (CPU) stages into the same memory
  }

  // The phases of a tile for Kc > 0 without RegisterTaps, one per output channel: tap(item, r, j) is tap j of
  // the item's input row r (of Rows + Kc - 1). Checked: items past the tile's columns (cols) or rows idle, and
  // a row's stores past the plane are masked per lane (the row's bound folded into the lane's: a condition
  // uniform over the CPU's item loop would be unswitched).
  template <bool Checked, class Group, class Tap>
  PORTKERN_INLINE void channel_phases(Group& g, std::int64_t plane, std::int64_t ox0, std::int64_t oy0_tile, int cols,
                                      Tap&& tap) const {
    const std::int64_t c_in = plane % p.channels;
    const std::int64_t plane_out = p.out_height * p.out_width;
    const std::int64_t oc0 = plane * p.multiplier;   // = n * C*m + c_in * m
    for (int mo = 0; mo < p.multiplier; ++mo) {
      const std::int64_t oc = c_in * p.multiplier + mo;
      const float* wc = weight + oc * Kc * Kc;
      float w[Kc][Kc];
      PORTKERN_UNROLL
      for (int i = 0; i < Kc; ++i)
        PORTKERN_UNROLL
        for (int j = 0; j < Kc; ++j) w[i][j] = wc[i * Kc + j];
      const float b = bias ? bias[oc] : 0.f;
      float* dst = out + (oc0 + mo) * plane_out;
      g.for_each_item([&](kernel::Item item) {
        const std::int64_t oy0 = oy0_tile + std::int64_t(item.y) * Rows;
        if (Checked && (item.x >= cols || oy0 >= p.out_height)) return;
        float acc[Rows];
        PORTKERN_UNROLL
        for (int r = 0; r < Rows; ++r) acc[r] = b;
        each_tap<Rows + Kc - 1>([&](auto r) {   // input rows, expanded at compile time like the taps
          float v[Kc];
          each_tap<Kc>([&](auto j) { v[j] = tap(item, r, j); });
          PORTKERN_UNROLL
          for (int o = 0; o < Rows; ++o) {
            const int i = r - o;
            if (i >= 0 && i < Kc) {
              PORTKERN_UNROLL
              for (int j = 0; j < Kc; ++j) acc[o] += w[i][j] * v[j];
            }
          }
        });
        float* col = dst + oy0 * p.out_width + ox0 + item.x;
        PORTKERN_UNROLL
        for (int o = 0; o < Rows; ++o)
          if (!Checked || item.x < cols * int(oy0 + o < p.out_height)) col[o * p.out_width] = acc[o];
      });
    }
  }

  template <bool Checked, class Group>
  PORTKERN_INLINE void tile_phases(Group& g, std::int64_t plane, std::int64_t ox0, std::int64_t oy0_tile) const {
    const int k = Kc > 0 ? Kc : p.k;
    const std::int64_t c_in = plane % p.channels;
    const float* src = in + plane * p.height * p.width;
    const std::int64_t plane_out = p.out_height * p.out_width;
    const std::int64_t oc0 = plane * p.multiplier;   // = n * C*m + c_in * m
    // Edge tiles: item x's tap j is in the image when lo <= x + j < hi; its output column exists when
    // x < cols (bounds relative to the tile, clamped into int).
    const int lo = clamp_int(p.pad - ox0, -1, tile_w + k);
    const int hi = clamp_int(p.width + p.pad - ox0, -1, tile_w + k);
    const int cols = clamp_int(p.out_width - ox0, 0, tile_w);
    if constexpr (RegisterTaps) {
      // Small windows: the item loads its (Rows + k - 1) x k taps once and every output channel of this input
      // channel reuses them from registers. (With the channel loop outside, as below, the stores to `out`
      // may alias `in` for the compiler, so the taps were loaded again per channel: 1.13-1.14x the native
      // twin's time at k = 3, m >= 2. At k = 5 the taps would take 60 registers: the loop below wins.)
      g.for_each_item([&](kernel::Item item) {
        const std::int64_t ox = ox0 + item.x;
        const std::int64_t oy0 = oy0_tile + std::int64_t(item.y) * Rows;
        if (Checked && (item.x >= cols || oy0 >= p.out_height)) return;
        const std::int64_t ix0 = ox - p.pad;
        float v[Rows + Kc - 1][Kc];
        PORTKERN_UNROLL
        for (int r = 0; r < Rows + Kc - 1; ++r) {
          const std::int64_t iy = oy0 - p.pad + r;
          const bool row_ok = !Checked || (iy >= 0 && iy < p.height);
          const float* row = src + iy * p.width + ix0;
          PORTKERN_UNROLL
          for (int j = 0; j < Kc; ++j)
            v[r][j] = !Checked || (row_ok && item.x + j >= lo && item.x + j < hi) ? row[j] : 0.f;
        }
        for (int mo = 0; mo < p.multiplier; ++mo) {
          const std::int64_t oc = c_in * p.multiplier + mo;
          const float* wc = weight + oc * Kc * Kc;
          float acc[Rows];
          const float b = bias ? bias[oc] : 0.f;
          PORTKERN_UNROLL
          for (int o = 0; o < Rows; ++o) acc[o] = b;
          PORTKERN_UNROLL
          for (int i = 0; i < Kc; ++i)
            PORTKERN_UNROLL
            for (int j = 0; j < Kc; ++j) {
              const float w = wc[i * Kc + j];
              PORTKERN_UNROLL
              for (int o = 0; o < Rows; ++o) acc[o] += w * v[o + i][j];
            }
          float* col = out + (oc0 + mo) * plane_out + oy0 * p.out_width + ox;
          PORTKERN_UNROLL
          for (int o = 0; o < Rows; ++o)
            if (!Checked || oy0 + o < p.out_height) col[o * p.out_width] = acc[o];
        }
      });
    } else if constexpr (Kc > 0) {
      // Tap j of item x's input row r: image row oy0 - pad + r, column ox0 + x - pad + j; outside the image
      // (edge tiles): 0.
      const float* base = src + (oy0_tile - p.pad) * p.width + ox0 - p.pad;
      channel_phases<Checked>(g, plane, ox0, oy0_tile, cols, [&](kernel::Item item, int r, int j) {
        const std::int64_t iy = oy0_tile - p.pad + std::int64_t(item.y) * Rows + r;
        const bool in_image = !Checked || (iy >= 0 && iy < p.height && item.x + j >= lo && item.x + j < hi);
        return in_image ? base[(std::int64_t(item.y) * Rows + r) * p.width + item.x + j] : 0.f;
      });
    } else {
      for (int mo = 0; mo < p.multiplier; ++mo) {
        const std::int64_t oc = c_in * p.multiplier + mo;
        const float* wc = weight + oc * k * k;
        const float b = bias ? bias[oc] : 0.f;
        float* dst = out + (oc0 + mo) * plane_out;
        g.for_each_item([&](kernel::Item item) {
          const std::int64_t ox = ox0 + item.x;
          const std::int64_t oy0 = oy0_tile + std::int64_t(item.y) * Rows;
          if (Checked && (item.x >= cols || oy0 >= p.out_height)) return;
          float acc[Rows];
          PORTKERN_UNROLL
          for (int r = 0; r < Rows; ++r) acc[r] = b;
          const std::int64_t ix0 = ox - p.pad;
          for (int r = 0; r < Rows + k - 1; ++r) {
            const std::int64_t iy = oy0 - p.pad + r;
            if (Checked && (iy < 0 || iy >= p.height)) continue;
            const float* row = src + iy * p.width + ix0;
            for (int j = 0; j < k; ++j) {
              if (Checked && (ix0 + j < 0 || ix0 + j >= p.width)) continue;
              const float v = row[j];
              PORTKERN_UNROLL
              for (int o = 0; o < Rows; ++o) {
                const int i = r - o;
                if (i >= 0 && i < k) acc[o] += wc[i * k + j] * v;
              }
            }
          }
          float* col = dst + oy0 * p.out_width + ox;
          PORTKERN_UNROLL
          for (int o = 0; o < Rows; ++o)
            if (!Checked || oy0 + o < p.out_height) col[o * p.out_width] = acc[o];
        });
      }
    }
  }
};

// The launch sequence, written once over the back end. CUDA: the tile above, taps in registers for k <= 3.
// CPU: 16 x 8 tiles, a phase per output channel (its weights uniform, the taps reloaded from L1), edge tiles
// staged (2 threads, --size small: 16 x 32 tiles with masked edge tiles ran k = 3 at 73-108% of copy, 16 x 8
// at 120-127%, staged at 150-163%).
template <class Backend, int Kc>
void launch(Queue& queue, const DwconvShape& s, const float* in, const float* weight, const float* bias, float* out) {
  using Cpu = DwconvKernel<Kc, 16, 1, 8, false, Kc != 0, true>;
  using Kernel = std::conditional_t<Backend::items_are_lanes, Cpu, DwconvKernel<Kc>>;
  const Params p = make_params(s, Kernel::tile_w, Kernel::tile_h);
  Backend::launch(queue, kernel::Range{s.batch * s.channels * p.tiles_x * p.tiles_y}, Kernel{p, in, weight, bias, out});
}

template <class Backend>
void run(Queue& queue, const DwconvShape& s, const float* in, const float* weight, const float* bias, float* out) {
  switch (s.kernel) {
    case 1: return launch<Backend, 1>(queue, s, in, weight, bias, out);
    case 3: return launch<Backend, 3>(queue, s, in, weight, bias, out);
    case 5: return launch<Backend, 5>(queue, s, in, weight, bias, out);
    default: return launch<Backend, 0>(queue, s, in, weight, bias, out);
  }
}

}  // namespace portkern::ops::dwconv_impl
