// The portable channel-shuffle kernels.
//
// NCHW: a group copies a chunk of Items * PerItem vectors of V floats of one output plane (n, c); the plane
// and its source plane are found once per group. Item i takes vectors i, i + Items, ... so consecutive items
// touch consecutive 16-byte words (coalesced on CUDA, one SIMD loop on the CPU).
//
// NHWC: a group of 32 x 8 items covers a tile of 32 channels (tiles = ceil(C / 32)) of Rows * 8 pixels. Item
// (x, y) owns one output channel co and its source channel (computed once); it walks pixels y, y + 8, ...
// so each row of 32 items reads and writes one 128-byte run of a pixel. For C < 32, the 32 items of a row
// cover floor(32 / C) whole pixels (item x: channel x % C of pixel x / C), so small C wastes few items.
// Item x's output is at offset tile * 32 + x of its row's first pixel in both cases, so the CPU's item loop
// stores contiguously (and gathers the sources).
//
// Both: a group is one of two uniform cases, whole (no check per element) or the last, checked one.
#pragma once

#include <cstdint>

#include "ops/channel_shuffle/plan.hpp"
#include "portkern/kernel/math.hpp"
#include "portkern/kernel/model.hpp"

namespace portkern::ops::channel_shuffle_impl {

// NCHW: the `chunk` floats of an output plane that group `group` copies (chunks_per_plane groups a plane),
// their source in the input plane of the source channel, and how many of them the plane has (<= chunk).
struct PlaneChunk {
  const float* src;
  float* dst;
  std::int64_t n;
};
PORTKERN_INLINE PlaneChunk plane_chunk(const Plan& plan, const float* in, float* out, std::int64_t group,
                                       std::int64_t chunks_per_plane, std::int64_t chunk) {
  const std::int64_t plane = group / chunks_per_plane, col0 = (group % chunks_per_plane) * chunk;
  const std::int64_t b = plane / plan.c, co = plane % plan.c;
  return {in + (b * plan.c + source_channel(plan, co)) * plan.hw + col0, out + plane * plan.hw + col0,
          plan.hw - col0 < chunk ? plan.hw - col0 : chunk};
}

template <int V, int Items = 256, int PerItem = 4>
struct NchwKernel {
  using group_shape = kernel::Shape<Items>;
  static constexpr std::int64_t chunk = std::int64_t(Items) * PerItem * V;

  Plan plan;
  std::int64_t chunks_per_plane;
  const float* in;
  float* out;

  // Two uniform cases: a whole chunk (no checks) or the plane's last, shorter one.
  template <class Group>
  PORTKERN_KERNEL void operator()(Group& g) const {
    if (plan.hw - (g.x() % chunks_per_plane) * chunk >= chunk) copy<false>(g);
    else copy<true>(g);
  }

  template <bool Checked, class Group>
  PORTKERN_INLINE void copy(Group& g) const {
    const PlaneChunk part = plane_chunk(plan, in, out, g.x(), chunks_per_plane, chunk);
    const float* src = part.src;
    float* dst = part.dst;
    const std::int64_t n = part.n;   // a multiple of V
    g.for_each_item([&](kernel::Item item) {
      kernel::vec<float, V> v[PerItem] = {};   // all loads first: in and out may not be marked restrict
      PORTKERN_UNROLL
      for (int e = 0; e < PerItem; ++e) {
        const std::int64_t j = (std::int64_t(e) * Items + item.x) * V;
        if (!Checked || j < n) v[e] = kernel::vec<float, V>::load(src + j);
      }
      PORTKERN_UNROLL
      for (int e = 0; e < PerItem; ++e) {
        const std::int64_t j = (std::int64_t(e) * Items + item.x) * V;
        if (!Checked || j < n) v[e].store(dst + j);
      }
    });
  }
};

// The CPU's NCHW form: a group copies a span of up to Span floats of one output plane, in phases of Items
// consecutive floats (one vectorised copy each) and a last, shorter phase over the items below its count
// (where NchwKernel checked every element of its last chunk: 0.84-0.90x oneDNN on 1x32x112x112, whose planes
// of 12544 floats end in a chunk of 256).
template <int Items = 2048, std::int64_t Span = 65536>
struct NchwRunKernel {
  using group_shape = kernel::Shape<Items>;
  static constexpr std::int64_t chunk = Span;

  Plan plan;
  std::int64_t chunks_per_plane;
  const float* in;
  float* out;

  template <class Group>
  PORTKERN_KERNEL void operator()(Group& g) const {
    const PlaneChunk part = plane_chunk(plan, in, out, g.x(), chunks_per_plane, Span);
    const float* src = part.src;
    float* dst = part.dst;
    const std::int64_t n = part.n;
    std::int64_t j0 = 0;
    for (; j0 + Items <= n; j0 += Items) g.for_each_item([&](kernel::Item item) { dst[j0 + item.x] = src[j0 + item.x]; });
    if (j0 < n) g.for_each_item_below(int(n - j0), [&](kernel::Item item) { dst[j0 + item.x] = src[j0 + item.x]; });
  }
};

// Small: channel counts below 2^32, so the source channel is a 32-bit quotient (kernel::quotient32: SIMD
// lanes on the CPU, a 32-bit division on CUDA) rather than a 64-bit division. AllTiles (the CPU's form): a
// group takes 8 pixels at a time and every tile of them, so that one core reads each pixel's channels as a
// run; with a group per tile (CUDA's form, where the tiles of a pixel run side by side on the SMs) a core
// reads 2 of each pixel's cache lines per tile, 2 KB apart at C = 512, which its prefetchers do not follow
// (0.43-0.57x oneDNN there).
template <bool Small, bool AllTiles = false>
struct NhwcKernel {
  static constexpr int X = 32, Y = 8, Rows = 8;   // 32 channels x 8 item rows x 8 pixel steps per group
  using group_shape = kernel::Shape<X, Y>;

  Plan plan;
  std::int64_t tiles;      // ceil(C / 32)
  int width;               // channels per item row: min(C, 32)
  int per_row;             // pixels per item row: 32 / width
  const float* in;
  float* out;

  // Two uniform cases: a group whose pixels all exist (no per-pixel checks) or the last one.
  template <class Group>
  PORTKERN_KERNEL void operator()(Group& g) const {
    const std::int64_t per_group = std::int64_t(Y) * per_row * Rows;
    const std::int64_t chunk = AllTiles ? g.x() : g.x() / tiles;
    const bool whole = (chunk + 1) * per_group <= plan.n * plan.hw;
    if constexpr (AllTiles) {   // the CPU: a pixel at a time where C >= 256, else 8 pixels with all their tiles
      if (plan.c >= X * Y) {
        const std::int64_t p0 = chunk * per_group, end = p0 + per_group < plan.n * plan.hw ? p0 + per_group : plan.n * plan.hw;
        for (std::int64_t p = p0; p < end; ++p)
          for (std::int64_t tile = 0; tile < tiles; tile += Y) copy_pixel(g, p, tile);
        return;
      }
      for (int r = 0; r < Rows; ++r)
        for (std::int64_t tile = 0; tile < tiles; ++tile) {
          if (whole) copy<false, 1>(g, tile, chunk, r);
          else copy<true, 1>(g, tile, chunk, r);
        }
    } else {
      if (whole) copy<false, Rows>(g, g.x() % tiles, chunk, 0);
      else copy<true, Rows>(g, g.x() % tiles, chunk, 0);
    }
  }

  PORTKERN_INLINE std::int64_t quotient(std::int64_t a, std::int64_t b) const {
    if constexpr (Small) return kernel::quotient32(a, b);
    else return a / b;
  }

  // The CPU's form for C >= 256: pixel p's channels of tiles tile0 .. tile0 + 7, item (x, y) the channel
  // (tile0 + y) * 32 + x: a phase reads `groups` runs of the pixel and writes one (0.85-0.91x oneDNN at
  // C = 512, where 8 pixels a phase ran 0.70-0.73x; below 256 channels most of its items would idle).
  template <class Group>
  PORTKERN_INLINE void copy_pixel(Group& g, std::int64_t p, std::int64_t tile0) const {
    const std::int64_t c = plan.c, groups = plan.groups, k = plan.k;
    const float* src = in + p * c;
    float* dst = out + p * c;
    g.for_each_item([&](kernel::Item item) {
      const std::int64_t co = (tile0 + item.y) * X + item.x;
      if (co >= c) return;
      const std::int64_t q = quotient(co, groups);
      dst[co] = src[(co - q * groups) * k + q];
    });
  }

  // Item x of a row writes output offset tile * 32 + x of the row's first pixel (channel co of pixel px:
  // px * C + co = x for C < 32), reading offset - co + ci, so that consecutive items store contiguously.
  // Pixel steps r0 .. r0 + R - 1 of the group's Rows.
  template <bool Checked, int R, class Group>
  PORTKERN_INLINE void copy(Group& g, std::int64_t tile, std::int64_t chunk, int r0) const {
    const std::int64_t pixels = plan.n * plan.hw;
    const std::int64_t step = std::int64_t(Y) * per_row;         // pixels per pass of the whole group
    const std::int64_t p0 = chunk * step * Rows;
    const std::int64_t c = plan.c, groups = plan.groups, k = plan.k;
    // Items past the tile's channels (C not a multiple of 32) or past its whole pixels (32 % C != 0) idle.
    const int items = width < X ? per_row * width : (c - tile * X < X ? int(c - tile * X) : X);
    g.for_each_item([&](kernel::Item item) {
      if (item.x >= items) return;
      const int px = width < X ? int(quotient(item.x, width)) : 0;   // 32-bit, once per item
      const std::int64_t co = tile * X + (item.x - px * width);
      const std::int64_t q = quotient(co, groups);
      const std::int64_t to = tile * X + item.x, from = to - co + (co - q * groups) * k + q;
      const std::int64_t p = p0 + (r0 * step + std::int64_t(item.y) * per_row);  // the item row's first pixel
      float v[R] = {};   // all loads first, then the stores
      PORTKERN_UNROLL
      for (int r = 0; r < R; ++r)
        if (!Checked || p + px + r * step < pixels) v[r] = in[(p + r * step) * c + from];
      PORTKERN_UNROLL
      for (int r = 0; r < R; ++r)
        if (!Checked || p + px + r * step < pixels) out[(p + r * step) * c + to] = v[r];
    });
  }
};

// The CPU's NHWC form for groups = G (2 or 4): output channel i * G + j of a pixel is input channel
// j * k + i (k = C / G). Item i of a phase reads input channels j * k + i, j < G (G contiguous loads across
// the items), and writes output channels i * G .. i * G + G - 1 (an interleaved store, which GCC builds from
// permutes): no gathers. A phase is up to Items of one pixel's k; a group is Pixels pixels. Measured
// (Xeon, 2 threads, against oneDNN): C = 128 0.83 -> 1.11-1.16, C = 512 0.86-0.92 -> 1.12-1.23; the lane
// permutation the gathers stood for is the compiler's here, from the interleaved store.
template <int G, int Items = 256, int Pixels = 16>
struct NhwcInterleaveKernel {
  using group_shape = kernel::Shape<Items>;
  static constexpr int pixels_per_group = Pixels;

  Plan plan;
  const float* in;
  float* out;

  template <class Group>
  PORTKERN_KERNEL void operator()(Group& g) const {
    const std::int64_t c = plan.c, k = plan.k, total = plan.n * plan.hw, p0 = g.x() * Pixels;
    const std::int64_t end = p0 + Pixels < total ? p0 + Pixels : total;
    for (std::int64_t p = p0; p < end; ++p)
      for (std::int64_t i0 = 0; i0 < k; i0 += Items) {
        const float* src = in + p * c + i0;
        float* dst = out + p * c + i0 * G;
        const auto copy = [&](kernel::Item item) {
          float v[G];
          PORTKERN_UNROLL
          for (int j = 0; j < G; ++j) v[j] = src[j * k + item.x];
          PORTKERN_UNROLL
          for (int j = 0; j < G; ++j) dst[std::int64_t(item.x) * G + j] = v[j];
        };
        if (k - i0 >= Items) g.for_each_item(copy);
        else g.for_each_item_below(int(k - i0), copy);
      }
  }
};

// The launch sequence, written once over the back end. NCHW: CUDA copies 16-byte vectors where they fit;
// the CPU one float per item (its items are SIMD lanes), 2048 items of 2 (16 KB, as CUDA's chunk: 16 items
// of 4 floats per item interleave 16 streams and were 15% slower).
template <class Backend>
void run(Queue& queue, const Plan& plan, const float* in, float* out) {
  if (!plan.nhwc) {
    const auto launch = [&](auto kernel_type) {
      using Kernel = decltype(kernel_type);
      const std::int64_t chunks = (plan.hw + Kernel::chunk - 1) / Kernel::chunk;
      Backend::launch(queue, kernel::Range{plan.n * plan.c * chunks}, Kernel{plan, chunks, in, out});
    };
    if constexpr (Backend::items_are_lanes) launch(NchwRunKernel<>{});
    else if (plan.vector) launch(NchwKernel<4>{});
    else launch(NchwKernel<1>{});
    return;
  }
  if constexpr (Backend::items_are_lanes) {
    const auto interleave = [&](auto kernel_type) {
      using Kernel = decltype(kernel_type);
      const std::int64_t pixels = plan.n * plan.hw;
      Backend::launch(queue, kernel::Range{(pixels + Kernel::pixels_per_group - 1) / Kernel::pixels_per_group},
                      Kernel{plan, in, out});
    };
    // From 64 channels per group: below, a phase of one pixel is too short (C = 32: 0.88-1.01x oneDNN
    // against 1.20-1.28 for 8 pixels a phase, NhwcKernel's CPU form).
    if (plan.k >= 64 && plan.groups == 2) return interleave(NhwcInterleaveKernel<2>{});
    if (plan.k >= 64 && plan.groups == 4) return interleave(NhwcInterleaveKernel<4>{});
  }
  constexpr int X = NhwcKernel<true>::X, Y = NhwcKernel<true>::Y, Rows = NhwcKernel<true>::Rows;
  const int width = plan.c < X ? int(plan.c) : X;
  const int per_row = X / width;
  const std::int64_t tiles = (plan.c + X - 1) / X;
  const std::int64_t per_group = std::int64_t(Y) * per_row * Rows;
  const std::int64_t chunks = (plan.n * plan.hw + per_group - 1) / per_group;
  constexpr bool all_tiles = Backend::items_are_lanes;
  const kernel::Range groups{all_tiles ? chunks : chunks * tiles};
  if (plan.c < (std::int64_t(1) << 32))
    Backend::launch(queue, groups, NhwcKernel<true, all_tiles>{plan, tiles, width, per_row, in, out});
  else
    Backend::launch(queue, groups, NhwcKernel<false, all_tiles>{plan, tiles, width, per_row, in, out});
}

}  // namespace portkern::ops::channel_shuffle_impl
