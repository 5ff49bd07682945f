// The `windowed` convolution family: a direct convolution whose group copies the input window region of its
// tile of output pixels into group-local memory once, then walks the window from there, written once in the
// kernel model (barriers, group-local memory, per-item register tiles).
//
// What it computes: the NHWC output, plus bias, plus residual, then ReLU (dilation 1, one group; any window,
// stride and padding), in IEEE fp32 FMA. A group owns tile_h x tile_w output pixels of one image by block_k
// output channels. Its input channels are taken in chunks that fit group-local memory (all of them at once for
// a 3-channel image): per chunk it copies the tile's window region, ((tile_h - 1) * stride_h + window_h) rows of
// ((tile_w - 1) * stride_w + window_w) pixels (a row padded to a multiple of 4), zeros outside the image, one
// channel's rows after another's (a first layer's items issue the loads of 12 / channels pixels before they store
// any: their latencies overlap), and then the filters in stages of as many window rows as 2048 values hold (window_w * chunk x
// block_k values a row; a 3x3 window of 3 channels is one stage), double-buffered: each phase first copies the
// next stage into the other buffer (the loads' latency is covered by the other groups on the multiprocessor),
// then multiplies the current one. An item owns `pixels` consecutive pixels of a tile row by vec_k consecutive
// channels. For the windows of first layers (compiled_windows: width and stride at compile time) the item
// loads the span of values its pixels' windows share once per window row and channel, 4 at a time where
// pixels * stride is a multiple of 4, then each window value costs vec_k / 4 16-byte filter loads for pixels *
// vec_k FMAs. Other windows read `pixels` inputs per window value.
//
// Parameters (name "windowed/t<tile_h>x<tile_w>_k<block_k>_p<pixels>v<vec_k>"): tile_h in {2, 4, 8}, tile_w in
// {8, 16}, block_k in {32, 64}, pixels in {2, 4, 8}, vec_k in {4, 8}, with 32 to 1024 items a group.
//
// When it wins: first layers (on the H200, 17 stems of 1 or 3 channels at 0.70-1.32 of cuDNN FP32, geomean 1.03 at
// batch 4 and 1.00 at 1, where implicit GEMMs and im2col ran 0.23-0.69; docs/performance.md), whose few input
// channels make an implicit GEMM's k-tiles narrow and its window copies element by element (3 channels: no 16-byte
// chunk), and whose im2col buffer is window_h * window_w times the image: the window region is read from memory once
// per tile and reused from group-local memory by every window position and output channel. Layers with many
// channels are GEMMs' (implicit, gemm_1x1, winograd): their chunks of few channels leave the FMAs waiting on
// barriers. Patchify stems (stride = window) reuse a value only across output channels: 0.72-0.97 of cuDNN. On the
// CPU the items' runtime loops do not vectorise (1-3 GFLOP/s): im2col/in_place's micro-kernels take first layers
// there.
#pragma once

#include <cstdint>
#include <iterator>
#include <string>
#include <string_view>
#include <utility>

#include "common/config_names.hpp"
#include "conv2d/args.hpp"
#include "portkern/kernel/model.hpp"
#include "portkern/kernel/private_array.hpp"

namespace portkern::conv2d_impl {

struct WindowedConfig {
  int tile_h = 8, tile_w = 16, block_k = 64, pixels = 4, vec_k = 8;
  constexpr bool operator==(const WindowedConfig&) const = default;
  constexpr int items() const { return block_k / vec_k * (tile_h * tile_w / pixels); }
};

// Group-local memory of every configuration: the window region of a chunk of channels (24 KiB: a patchify
// stem's 8 x 16 tile, 32 x 64 pixels of 3 channels), and the largest tile and window width whose region and
// filter rows hold at least one channel in every configuration.
inline constexpr int windowed_region_floats = 6144, windowed_largest_tile_h = 8, windowed_largest_tile_w = 16;
inline constexpr int windowed_largest_window_w = 16;

// A region row's floats: its pixels rounded up to a multiple of 4, so that 16-byte loads of a span stay aligned.
constexpr std::int64_t windowed_region_pitch(std::int64_t cols) { return (cols + 3) / 4 * 4; }

// The window widths and strides of first layers whose products are compiled for them (multiply<W, S>): 3x3 at
// strides 1 and 2, 5x5 and 9x9 at 1 (ESPCN, SRCNN), 7x7 and 6x6 at 2 (ResNet, YOLOv5), 4x4 and 11x11 at 4
// (ConvNeXt and Swin's patchify stems, AlexNet).
struct CompiledWindow {
  int width, stride;
};
inline constexpr CompiledWindow compiled_windows[] = {{3, 1}, {3, 2}, {5, 1}, {9, 1}, {7, 2}, {6, 2}, {4, 4}, {11, 4}};

// Each parameter's values (the space is their product, 32 to 1024 items a group).
inline constexpr int windowed_tile_h[] = {2, 4, 8}, windowed_tile_w[] = {8, 16}, windowed_block_k[] = {32, 64};
inline constexpr int windowed_pixels[] = {2, 4, 8}, windowed_vec_k[] = {4, 8};

constexpr bool windowed_in_space(const WindowedConfig& p) {
  auto one_of = [](int v, const auto& values) {
    for (int x : values)
      if (v == x) return true;
    return false;
  };
  return one_of(p.tile_h, windowed_tile_h) && one_of(p.tile_w, windowed_tile_w) &&
         one_of(p.block_k, windowed_block_k) && one_of(p.pixels, windowed_pixels) && one_of(p.vec_k, windowed_vec_k) &&
         p.items() >= 32 && p.items() <= 1024;
}

// Parses a name made by name(); `ok` tells whether it was one of the space's.
constexpr WindowedConfig parse_windowed(std::string_view s, bool* ok = nullptr) {
  using config_names::parse_int, config_names::parse_literal;
  WindowedConfig p;
  const bool good = parse_literal(s, "windowed/t") && parse_int(s, p.tile_h) && parse_literal(s, "x") &&
                    parse_int(s, p.tile_w) && parse_literal(s, "_k") && parse_int(s, p.block_k) &&
                    parse_literal(s, "_p") && parse_int(s, p.pixels) && parse_literal(s, "v") &&
                    parse_int(s, p.vec_k) && s.empty() && windowed_in_space(p);
  if (ok) *ok = good;
  return p;
}

inline std::string name(const WindowedConfig& p) {
  auto s = [](int v) { return std::to_string(v); };
  return "windowed/t" + s(p.tile_h) + "x" + s(p.tile_w) + "_k" + s(p.block_k) + "_p" + s(p.pixels) + "v" +
         s(p.vec_k);
}

template <WindowedConfig P>
struct Conv2dWindowed {
  static_assert(windowed_in_space(P), "a configuration of the windowed space");
  static constexpr int TH = P.tile_h, TW = P.tile_w, BK = P.block_k, PX = P.pixels, VK = P.vec_k;
  static constexpr int items_k = BK / VK, row_items = TW / PX, items = P.items();
  // A window row's filters (capacity): the widest window's block_k filters of one channel at least.
  static constexpr int filter_floats = 2048;
  static_assert(filter_floats >= windowed_largest_window_w * BK, "filter capacity");
  static_assert(TH <= windowed_largest_tile_h && TW <= windowed_largest_tile_w, "the applicability check's tile");
  using group_shape = kernel::Shape<items_k, items / items_k>;
  // Registers: the accumulators, the widest span of window values multiply() holds (2 * PX + 5, a 7-wide
  // window at stride 2) and 47 more an item (ptxas, sm_90: no spills); without the cap ptxas took 124-217 an
  // item, one or two groups a multiprocessor.
  static constexpr int registers = 52 + PX * VK + 2 * PX;
  static constexpr int resident_groups = 65536 / (registers * items) > 1 ? 65536 / (registers * items) : 1;

  ConvArgs a;
  bool vector_k;   // out_c % 4 == 0 and the output 16-byte aligned: vector stores

  PORTKERN_INLINE std::int64_t tiles_h() const { return (a.out_h + TH - 1) / TH; }
  PORTKERN_INLINE std::int64_t tiles_w() const { return (a.out_w + TW - 1) / TW; }
  PORTKERN_INLINE std::int64_t region_rows() const { return (TH - 1) * a.stride_h + a.window_h; }
  PORTKERN_INLINE std::int64_t region_cols() const { return (TW - 1) * a.stride_w + a.window_w; }
  // Input channels per chunk: as many as the region and a window row's filters hold (at least one: why_not).
  PORTKERN_INLINE std::int64_t chunk() const {
    const std::int64_t by_region = windowed_region_floats / (region_rows() * windowed_region_pitch(region_cols()));
    const std::int64_t by_filter = filter_floats / (a.window_w * BK);
    const std::int64_t most = by_region < by_filter ? by_region : by_filter;
    return a.in_c < most ? a.in_c : most;
  }
  // Tiles along x (image by image, row by row), blocks of output channels along y.
  kernel::Range groups() const { return {a.batch * tiles_h() * tiles_w(), (a.out_c + BK - 1) / BK, 1}; }

  // sum += an item's products over r_count window rows of cc channels. `in`: the region at the item's first
  // pixel in the first of those rows (a row `pitch` values after the previous one, a channel's rows `plane`
  // values after the previous channel's); `f`: the stage's filters at the item's first output channel (window
  // row r, column s, channel c at ((r * S + s) * cc + c) * BK). With the window width and stride known at
  // compile time (WS, SW > 0) each (window row, channel) loads the (PX - 1) * SW + WS values its pixels' windows
  // span once into registers, 16 bytes at a time where PX * SW is a multiple of 4 (the item's first pixel then
  // starts a 16-byte chunk of its row; the span rounded up stays inside the row's pitch): PX * VK FMAs per window
  // value for VK / 4 16-byte filter loads. WS = SW = 0: the descriptor's, PX region loads per window value.
  template <int WS, int SW>
  PORTKERN_INLINE void multiply(float (&sum)[PX][VK], const float* in, const float* f, int r_count, int cc, int plane,
                                int pitch) const {
    const int S = WS ? WS : int(a.window_w), sw = SW ? SW : int(a.stride_w);
    for (int r = 0; r < r_count; ++r)
      for (int c = 0; c < cc; ++c) {
        const float* x_row = in + c * plane + r * pitch;
        const float* w_row = f + (r * S * cc + c) * BK;   // window column s: s * cc * BK further
        if constexpr (WS > 0) {
          constexpr int span = (PX - 1) * SW + WS;
          constexpr bool by_vectors = PX * SW % 4 == 0;
          constexpr int loaded = by_vectors ? (span + 3) / 4 * 4 : span;
          float x[loaded];
          if constexpr (by_vectors) {
            PORTKERN_UNROLL
            for (int q = 0; q < loaded; q += 4) {
              const auto x4 = kernel::vec<float, 4>::load(x_row + q);
              PORTKERN_UNROLL
              for (int i = 0; i < 4; ++i) x[q + i] = x4[i];
            }
          } else {
            PORTKERN_UNROLL
            for (int q = 0; q < span; ++q) x[q] = x_row[q];
          }
          PORTKERN_UNROLL
          for (int s = 0; s < WS; ++s) add_products(sum, x + s, SW, w_row + s * cc * BK);
        } else {
          for (int s = 0; s < S; ++s) {
            float x[PX];
            PORTKERN_UNROLL
            for (int p = 0; p < PX; ++p) x[p] = x_row[p * sw + s];
            add_products(sum, x, 1, w_row + s * cc * BK);
          }
        }
      }
  }

  // multiply<W, S> for the compiled window of the descriptor's width and stride (a uniform branch), else the
  // run-time loop multiply<0, 0>.
  template <std::size_t... I>
  PORTKERN_INLINE void multiply_window(std::index_sequence<I...>, float (&sum)[PX][VK], const float* in,
                                       const float* f, int r_count, int cc, int plane, int pitch) const {
    const int S = int(a.window_w), sw = int(a.stride_w);
    const bool compiled = ((S == compiled_windows[I].width && sw == compiled_windows[I].stride &&
                            (multiply<compiled_windows[I].width, compiled_windows[I].stride>(sum, in, f, r_count, cc,
                                                                                             plane, pitch),
                             true)) ||
                           ...);
    if (!compiled) multiply<0, 0>(sum, in, f, r_count, cc, plane, pitch);
  }

  // A group's window region of a chunk of channels: pixel e = row * pitch + col of rows x pitch (the columns
  // past `cols` pad a row to a multiple of 4), channel c of it at region[c * rows * pitch + e].
  struct Region {
    const float* image;      // the group's image at the chunk's first channel
    std::int64_t iy0, ix0;   // the input pixel of the first row and column
    int rows, cols, pitch, cc;
  };

  // The region's values (zeros outside the image and past `cols`), an item's pixels `items` apart from `first`:
  // consecutive items read consecutive pixels; its (row, col) is walked without a division. CC > 0: the chunk's channels at compile time (first layers: 1 to 4), the loads of 12 / CC pixels in
  // flight before their stores (a loop of load-then-store waits for each load in turn). CC = 0: r.cc, a pixel at
  // a time.
  static constexpr int copy_batch_values = 12;
  template <int CC>
  PORTKERN_INLINE void copy_region(int first, const Region& r, float* region) const {
    constexpr int batch = CC > 0 ? copy_batch_values / CC : 1;
    const int plane = r.rows * r.pitch, step_row = items / r.pitch, step_col = items % r.pitch;
    int row = first / r.pitch, col = first % r.pitch;
    auto pixel = [&](bool& inside) {
      const std::int64_t iy = r.iy0 + row, ix = r.ix0 + col;
      inside = col < r.cols && iy >= 0 && iy < a.in_h && ix >= 0 && ix < a.in_w;
      const float* at = r.image + (iy * a.in_w + ix) * a.in_c;
      row += step_row, col += step_col;
      if (col >= r.pitch) col -= r.pitch, ++row;
      return at;
    };
    if constexpr (CC > 0) {
      if (CC * plane > windowed_region_floats) return;   // never: chunk() fits the region (and tells the compiler)
      for (int e0 = first; e0 < plane; e0 += batch * items) {
        float v[batch][CC];
        PORTKERN_UNROLL
        for (int b = 0; b < batch; ++b) {
          bool inside;
          const float* at = pixel(inside);
          inside = inside && e0 + b * items < plane;
          PORTKERN_UNROLL
          for (int c = 0; c < CC; ++c) v[b][c] = inside ? at[c] : 0.f;
        }
        PORTKERN_UNROLL
        for (int b = 0; b < batch; ++b)
          if (e0 + b * items < plane)
            PORTKERN_UNROLL
            for (int c = 0; c < CC; ++c) region[c * plane + e0 + b * items] = v[b][c];
      }
    } else {
      for (int e = first; e < plane; e += items) {
        bool inside;
        const float* at = pixel(inside);
        for (int c = 0; c < r.cc; ++c) region[c * plane + e] = inside ? at[c] : 0.f;
      }
    }
  }

  // store(e, load(e)) for e = first, first + step, ... below count: an item's copy, copy_batch loads issued
  // before any of their stores.
  static constexpr int copy_batch = 4;
  template <class Load, class Store>
  PORTKERN_INLINE static void copy_batched(int first, int count, int step, Load&& load, Store&& store) {
    for (int e0 = first; e0 < count; e0 += copy_batch * step) {
      float v[copy_batch] = {};
      PORTKERN_UNROLL
      for (int b = 0; b < copy_batch; ++b)
        if (e0 + b * step < count) v[b] = load(e0 + b * step);
      PORTKERN_UNROLL
      for (int b = 0; b < copy_batch; ++b)
        if (e0 + b * step < count) store(e0 + b * step, v[b]);
    }
  }

  // sum[p][v] += x[p * x_step] * w[v]: one window value's products, its VK filters loaded 4 at a time.
  PORTKERN_INLINE static void add_products(float (&sum)[PX][VK], const float* x, int x_step, const float* w) {
    PORTKERN_UNROLL
    for (int v0 = 0; v0 < VK; v0 += 4) {
      const auto w4 = kernel::vec<float, 4>::load(w + v0);
      PORTKERN_UNROLL
      for (int p = 0; p < PX; ++p)
        PORTKERN_UNROLL
        for (int v = 0; v < 4; ++v) sum[p][v0 + v] += x[p * x_step] * w4[v];
    }
  }

  template <class Group>
  PORTKERN_KERNEL void operator()(Group& g) const {
    auto& region = g.template local<float[windowed_region_floats], 0>();
    auto& filters = g.template local<float[2][filter_floats], 1>();
    kernel::private_array<float, PX * VK, Group> acc;
    const std::int64_t tx = g.x() % tiles_w(), ty = g.x() / tiles_w() % tiles_h(), n = g.x() / (tiles_w() * tiles_h());
    const std::int64_t oy0 = ty * TH, ox0 = tx * TW, k0 = g.y() * BK;
    const std::int64_t iy0 = oy0 * a.stride_h - a.pad_top, ix0 = ox0 * a.stride_w - a.pad_left;
    const int rows = int(region_rows()), cols = int(region_cols()), most = int(chunk());
    const int pitch = int(windowed_region_pitch(cols)), plane = rows * pitch;
    const int R = int(a.window_h), S = int(a.window_w), sh = int(a.stride_h), sw = int(a.stride_w);
    const float* image = a.input + n * a.in_h * a.in_w * a.in_c;

    // An item's share of the filters of window rows [r0, r0 + rows of the stage), channels [c0, c0 + cc) and the
    // block's output channels into `to`: value e = (window value j from the stage's first one) * BK + ch, where
    // window value j = (r - r0) * S * cc + s * cc + c; 0 past the last output channel. With every channel in
    // the chunk the stage is a run of RSCK rows, read without a division.
    auto copy_filters = [&](kernel::Item item, int r0, std::int64_t c0, int cc, int count, float* to) {
      const bool in_range = k0 + BK <= a.out_c;
      auto store = [&](int e, float v) { to[e] = v; };
      if (cc == a.in_c) {
        const float* from = a.filter + std::int64_t(r0) * S * cc * a.out_c + k0;
        copy_batched(item.linear, count, items, [&](int e) {
          const int j = e / BK, ch = e % BK;
          return in_range || k0 + ch < a.out_c ? from[std::int64_t(j) * a.out_c + ch] : 0.f;
        }, store);
        return;
      }
      copy_batched(item.linear, count, items, [&](int e) {
        const int j = e / BK, ch = e % BK, r = j / (S * cc), at = j - r * S * cc;
        const std::int64_t row = (std::int64_t(r0 + r) * S + at / cc) * a.in_c + c0 + at % cc;
        return k0 + ch < a.out_c ? a.filter[row * a.out_c + k0 + ch] : 0.f;
      }, store);
    };

    g.for_each_item([&](kernel::Item item) {
      PORTKERN_UNROLL
      for (int i = 0; i < PX * VK; ++i) acc(item, i) = 0.f;
    });
    for (std::int64_t c0 = 0; c0 < a.in_c; c0 += most) {
      const int cc = a.in_c - c0 < most ? int(a.in_c - c0) : most, row_filters = S * cc * BK;
      // Window rows a stage of filters holds (at least 1: chunk()), and the stages.
      const int stage_rows = filter_floats / row_filters < R ? filter_floats / row_filters : R;
      const int stages = (R + stage_rows - 1) / stage_rows;
      auto stage_floats = [&](int st) {
        return ((st + 1) * stage_rows < R ? stage_rows : R - st * stage_rows) * row_filters;
      };
      // The region and the first stage's filters.
      g.for_each_item([&](kernel::Item item) {
        const Region at{image + c0, iy0, ix0, rows, cols, pitch, cc};
        switch (cc) {
          case 1: copy_region<1>(item.linear, at, region); break;
          case 2: copy_region<2>(item.linear, at, region); break;
          case 3: copy_region<3>(item.linear, at, region); break;
          case 4: copy_region<4>(item.linear, at, region); break;
          default: copy_region<0>(item.linear, at, region);
        }
        copy_filters(item, 0, c0, cc, stage_floats(0), filters[0]);
      });
      g.barrier();
      for (int st = 0; st < stages; ++st) {
        g.for_each_item([&](kernel::Item item) {
          // The next stage's filters go to the other buffer first: their loads' latency is the other groups'
          // FMAs on the multiprocessor (values held in registers across the products cost 40-90 registers).
          if (st + 1 < stages)
            copy_filters(item, (st + 1) * stage_rows, c0, cc, stage_floats(st + 1), filters[(st + 1) % 2]);
          float sum[PX][VK];
          PORTKERN_UNROLL
          for (int p = 0; p < PX; ++p)
            PORTKERN_UNROLL
            for (int v = 0; v < VK; ++v) sum[p][v] = acc(item, p * VK + v);
          // This item's pixels read the region from (its tile row * stride + the stage's first window row, its
          // first column * stride), the stage's filters from its first output channel.
          const int tile_row = item.y / row_items, first_col = item.y % row_items * PX, r0 = st * stage_rows;
          const int r_count = r0 + stage_rows < R ? stage_rows : R - r0;
          const float* in = &region[(tile_row * sh + r0) * pitch + first_col * sw];
          const float* f = &filters[st % 2][item.x * VK];
          multiply_window(std::make_index_sequence<std::size(compiled_windows)>{}, sum, in, f, r_count, cc, plane,
                          pitch);
          PORTKERN_UNROLL
          for (int p = 0; p < PX; ++p)
            PORTKERN_UNROLL
            for (int v = 0; v < VK; ++v) acc(item, p * VK + v) = sum[p][v];
        });
        g.barrier();   // the next phase overwrites the filters this one read (and, after the last stage, the region)
      }
    }

    g.for_each_item([&](kernel::Item item) {
      const std::int64_t oy = oy0 + item.y / row_items, first_x = ox0 + item.y % row_items * PX;
      const std::int64_t k = k0 + item.x * VK;
      if (oy >= a.out_h || k >= a.out_c) return;
      PORTKERN_UNROLL
      for (int p = 0; p < PX; ++p) {
        const std::int64_t ox = first_x + p;
        if (ox >= a.out_w) break;
        const std::int64_t offset = ((n * a.out_h + oy) * a.out_w + ox) * a.out_c + k;
        if (vector_k && k + VK <= a.out_c) {
          PORTKERN_UNROLL
          for (int v0 = 0; v0 < VK; v0 += 4) {
            kernel::vec<float, 4> w;
            PORTKERN_UNROLL
            for (int v = 0; v < 4; ++v) w[v] = finish(acc(item, p * VK + v0 + v), a, offset + v0 + v, k + v0 + v);
            w.store(a.output + offset + v0);
          }
        } else {
          PORTKERN_UNROLL
          for (int v = 0; v < VK; ++v)
            if (k + v < a.out_c) a.output[offset + v] = finish(acc(item, p * VK + v), a, offset + v, k + v);
        }
      }
    });
  }
};

}  // namespace portkern::conv2d_impl
