// The `depthwise` convolution family (MobileNet, EfficientNet): groups = in_c = out_c, each output channel the
// window_h x window_w convolution of its own input channel, written once in the kernel model.
//
// A group is one output row of one image (or one pixel, below) and `Items` consecutive channels; it walks its
// pixels in blocks of P (P pixels whose taps all lie inside the image along x; pairs and single pixels at the
// row's ends) and sums each block over the taps in a diagonal fragment (portkern/kernel/diagonal_fragment.hpp:
// item c's channel times its own filter value), one batch-reduce call per window row, then stores the sums in
// a phase that adds the bias and residual and applies ReLU. On the CPU the fragment keeps the block's sums in
// SIMD registers across its taps (4 or 8 pixels x Items / 16 vectors); on CUDA each thread keeps its channel's.
// In NHWC the channels are the innermost dimension, so the items read consecutive input, filter and output
// addresses: SIMD lanes on the CPU, coalesced on CUDA. The taps inside the image are worked out per pixel, once
// for all items (uniform bounds: no per-tap or per-item condition). Any window, stride, padding and dilation.
//
// Parameters: Items (channels per group: on the CPU 16 to 64, a multiple of 8 that splits out_c evenly, so that
// no block is narrower than a vector; on CUDA 8 to 64, the fewest idle threads, groups packed 256 threads a
// block; depthwise/entry.cpp), WholeRows (a group walks whole output rows, the CPU's mapping, rows_per_group of
// them in turn where they fit the L1 cache; else a segment of Segment pixels of a row, CUDA's: with a row per
// group the H100 had too few groups, 31-124 GFLOP/s on MobileNetV2 / EfficientNet layers where a pixel per
// group ran 86-489), Grouped (the `grouped` algorithm: any groups, each output channel the sum over its group's
// in_c / groups input channels, a phase per tap and input channel in which item k reads its group's channel: a
// gathered load on the CPU, a value its group's threads share on CUDA; the first channel of each item's group
// is worked out once per group of items; where every item of a group of items is in the same channel group,
// one value read for all of them, and P pixels a phase), Segment (CUDA: 1 or 4 pixels of a row a group), Block
// (grouped with groups of Block = 2, 4, 8, 16 or 32 input and output channels: the sums in a diagonal fragment's
// block-diagonal product, fma_block, instead of phases; the CPU's grouped/default, grouped/block.hpp), Lanes
// (depthwise: channels an item, the diagonal fragment's Lanes; CUDA's pixel_c4 takes 4 a thread, one 16-byte
// load for 4 products, Items / Lanes threads a group).
//
// When it wins: the depthwise mode wherever it applies (the dense algorithms do not take groups; `direct` sums
// each item's taps inside one phase, which GCC leaves scalar). On 2 Xeon cores it went from 0.20-0.52 of
// oneDNN's brdgmm kernels (geomean 0.35), when each tap was a phase whose sums lived in memory, to 0.75-0.95
// (0.84) on MobileNetV2 / EfficientNet-B0 and 0.60-0.95 (0.80) on 20 layers it was never measured on while
// written (docs/performance.md); on one Zen 5 core 0.85 of oneDNN on 27 layers since a window is one fragment
// call (fma_batches) and blocks that are not whole vectors keep their sums in registers (fourteenth session).
// What it lacks: single pixels at a row's ends are summed one at a time, whose few sums leave the FMAs' latency
// exposed (ConvNeXt's 7 x 7 window on a 7 x 7 image: every pixel is one, 0.46-0.55 of oneDNN on one core; some
// processes ran it 1.7x as fast, not understood; summing such pixels down the rows, as the block-diagonal mode
// does, ran depthwise 0.98x). On CUDA: 0.65-0.80 of cuDNN fp32 on 27 layers (H200, two machines;
// depthwise/entry.cpp). The grouped mode wins on the CPU with its block-diagonal fragment (groups of 2 to 32
// channels: 0.96-0.97 of oneDNN on 10 grouped layers of 7 networks, 2 Zen 5 cores; grouped/block.hpp; groups
// of 32, and of 16 on large stride-1 images, go to grouped/gemm) and its phases below 8 output channels a group
// otherwise (from 8 a group, grouped/gemm). On CUDA the rule sends groups of 16 channels or more to `implicit`
// (an implicit GEMM per group on the fragments, 1.1-7x direct's speed on the H200) and narrower ones to direct,
// whose one thread per output with its taps in registers ran ResNeXt-50's layers 1.31x faster than these phases.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "conv2d/args.hpp"
#include "portkern/kernel/diagonal_fragment.hpp"
#include "portkern/kernel/divider.hpp"
#include "portkern/kernel/private_array.hpp"

namespace portkern::conv2d_impl {

template <int Items = 64, bool WholeRows = true, bool Grouped = false, int Segment = 1, int Block = 0, int Lanes = 1>
struct Conv2dDepthwise {
  static_assert(Lanes == 1 || (!Grouped && Items % Lanes == 0), "channels a thread: depthwise, whole items");
  using group_shape = kernel::Shape<Items / Lanes>;
  // CUDA: 256 threads a block whatever the channels a group (the groups share nothing); with a group a block,
  // 32-channel groups filled half an SM's threads at most. With groups of 32 channels instead of 64 (half of
  // them idle), packed 8 a block: MobileNetV2's 112 x 112 x 32, a pixel a thread, 350 -> 575 GFLOP/s (H200).
  static constexpr int packed_groups = WholeRows ? 1 : std::max(1, 256 / group_shape::x);
  ConvArgs a;

  // What depends on the layer only, worked out on the host where the kernel is built: CUDA's 64-bit divisions
  // are subroutines, a handful of them per thread beside a pixel's 9 FMAs. The pixels [x_lo, x_hi) have every
  // tap inside the image along x (first_inside, end_inside); a group's index splits into (image, row, segment)
  // by dividers (kernel/divider.hpp). On an H200, a pixel a thread: 1.05-1.10x on most layers (MobileNetV2's
  // 56 x 56 x 144: 564 -> 618 GFLOP/s), not the 2x that counting a division's instructions promised: nvcc's
  // 64-bit division takes a 32-bit path where the operands fit.
  std::int64_t x_lo = first_inside(a), x_hi = end_inside(a);
  std::int64_t group_in = a.in_c / std::max<std::int64_t>(a.groups, 1);   // a group's input channels (depthwise: 1)
  std::int64_t group_out = a.out_c / std::max<std::int64_t>(a.groups, 1);
  kernel::divider by_segments{segments()}, by_out_h{a.out_h}, by_group_out{group_out};
  // The stride in dilations, where it is a whole number (the sliding-window product's Ratio), else 0.
  std::int64_t window_ratio = a.dilation_w > 0 && a.stride_w % a.dilation_w == 0 ? a.stride_w / a.dilation_w : 0;

  // The output pixels of a group along its row: a whole row, or a segment of Segment pixels (the last one of a
  // row shorter).
  PORTKERN_INLINE std::int64_t row_pixels() const { return WholeRows ? a.out_w : Segment; }
  PORTKERN_INLINE std::int64_t segments() const { return (a.out_w + row_pixels() - 1) / row_pixels(); }

  // Rows: x the blocks of channels, y chunks of rows_per_group consecutive output rows (n, y) that a group walks
  // one after the other, so that the input rows its window shares stay in the L1 cache: with a row per group
  // and the blocks of a row in turn, the other blocks evicted them, and every input load came from L2 (on
  // MobileNetV2's 14 x 14 x 384 layer, one Xeon core: 44 -> 49 GFLOP/s). The launch keeps enough groups for its
  // threads (for_threads). Pixels: x the pixels (n, y, x), y the blocks (CUDA's grid allows 2^31 - 1 blocks
  // along x, 65535 along y).
  std::int64_t rows_per_group = 1;

  PORTKERN_INLINE std::int64_t blocks() const { return (a.out_c + Items - 1) / Items; }
  PORTKERN_INLINE std::int64_t units() const { return a.batch * a.out_h * segments(); }

  kernel::Range groups() const {
    return WholeRows ? kernel::Range{blocks(), (units() + rows_per_group - 1) / rows_per_group, 1}
                     : kernel::Range{units(), blocks(), 1};
  }

  // Rows: the kernel with as many rows a group as leave at least 4 groups a thread, the rows split evenly, where
  // a block's input rows under the window fit in a third of a 48 KiB L1 data cache; else a row a group, the
  // blocks of a row one after the other (x fastest), which reads whole cache lines of each pixel's channels
  // (rows of one block in turn ran MobileNetV2's 56 x 56 x 144 layer at 0.88x on one Xeon core: each pixel's
  // 48 channels are 3 of its 9 cache lines, and the L1 could not hold the window's rows of 56 pixels).
  Conv2dDepthwise for_threads(int threads) const {
    Conv2dDepthwise k = *this;
    constexpr std::int64_t l1_share = 16 * 1024;
    if (a.window_h > l1_share / (a.in_w * Items * std::int64_t(sizeof(float)))) return k;
    const std::int64_t rows = units(), wanted = 4 * std::int64_t(threads > 0 ? threads : 1);
    const std::int64_t per_chunk = std::max<std::int64_t>(blocks(), 1);   // groups in a chunk of rows
    const std::int64_t chunks =
        std::clamp<std::int64_t>((wanted + per_chunk - 1) / per_chunk, 1, std::max<std::int64_t>(rows, 1));
    k.rows_per_group = std::max<std::int64_t>((rows + chunks - 1) / chunks, 1);
    return k;
  }

  // The first output pixel whose taps along x all lie inside the image, and the end of such pixels (from x_lo
  // on), without overflow where the padding is near 2^63 (fuzz_conv_desc).
  static std::int64_t first_inside(const ConvArgs& a) {
    return a.pad_left == 0 ? 0 : (a.pad_left - 1) / std::max<std::int64_t>(a.stride_w, 1) + 1;
  }
  static std::int64_t end_inside(const ConvArgs& a) {
    const std::int64_t last = a.in_w - 1 - (a.window_w - 1) * a.dilation_w;   // tap 0's last column, unpadded
    constexpr std::int64_t most = std::numeric_limits<std::int64_t>::max();
    if (last < 0 && a.pad_left < -last) return 0;
    if (last <= 0 || a.pad_left <= most - last) return (last + a.pad_left) / std::max<std::int64_t>(a.stride_w, 1) + 1;
    return a.out_w;   // last + pad_left exceeds 64 bits: every pixel's taps end inside
  }

  // The taps [first, end) of a window along one axis that fall inside [0, size), for the output at `out`.
  PORTKERN_INLINE static void inside(std::int64_t out, std::int64_t stride, std::int64_t pad, std::int64_t dilation,
                                     std::int64_t window, std::int64_t size, std::int64_t& first, std::int64_t& end) {
    const std::int64_t origin = out * stride - pad;   // the input index of tap 0
    // (a dilation of 1 divides by nothing: most layers, and a division is a CUDA subroutine)
    first = origin >= 0 ? 0 : (dilation == 1 ? -(origin + 1) : -(origin + 1) / dilation) + 1;
    // The largest tap offset still inside, size - 1 - origin, in 64 unsigned bits: with a huge padding it exceeds
    // the signed ones (fuzz_conv_desc).
    if (origin > size - 1) {
      end = 0;
    } else {
      const std::uint64_t last = origin >= 0 ? std::uint64_t(size - 1 - origin)
                                             : std::uint64_t(size - 1) + std::uint64_t(-(origin + 1)) + 1;
      const std::uint64_t taps = (dilation == 1 ? last : last / std::uint64_t(dilation)) + 1;
      end = std::int64_t(std::min<std::uint64_t>(std::uint64_t(window), taps));
    }
    if (end < first) end = first;
  }

  // What the pixels of a group share: its channel block and, grouped, its channels' groups; its image, the input
  // row of its taps' first row (outside the image where the window meets the padding) and its taps inside the
  // image along y, and the offset of its first output. An input's offset is worked out for taps inside the
  // image only: tap (0, 0)'s may lie far outside it (a padding of 2^62 overflowed the pointer; fuzz_conv_desc).
  struct Row {
    std::int64_t c0, channels, first0, r0, r1, n, iy0, out_row;
    bool uniform;   // grouped: every item's channel lies in the same group (its input value is shared)
  };

  // Pixels per block where a row's pixels have every tap inside the image along x (the CPU's rows). Depthwise:
  // the block's sums live in SIMD registers across its taps (a diagonal fragment), up to four pixels x four
  // vectors of channels (6 and 8 pixels measured within 3% of 4 on MobileNetV2 / EfficientNet), 8 where the
  // block is one vector, whose sums would otherwise be too few to hide the FMAs' latency. Grouped, where the
  // items share their input values: each phase then updates P sums per item with one read of the tap's filter
  // values (ResNeXt-50's 16- and 32-channel groups on 2 Xeon cores: 27.6 -> 60.6 and 50.3 -> 71.2 GFLOP/s); not
  // where the items gather their inputs (ResNeXt's 4-channel groups 26.9 -> 22.5).
  static constexpr bool diagonal = !Grouped || Block > 0;   // sums in a diagonal fragment
  static constexpr int block_channels = Block > 0 ? Block : 1;   // a group's channels in the fragment (1: depthwise)
  static constexpr int P = !WholeRows ? (diagonal ? Segment : 1) : diagonal && Items <= 16 ? 8 : 4;
  // Whether the pixels that rows sum alone are summed down runs of rows instead (down_the_run): the CPU's block-
  // diagonal mode. Depthwise ran 0.98x with them (27 layers, one Zen 5 core: a pixel's taps load a vector of
  // input for each FMA, so a block saves little), grouped layers up to 1.12x (down_the_run's comment).
  static constexpr bool columns_down = WholeRows && Block > 0;

  template <class Group>
  PORTKERN_KERNEL void operator()(Group& g) const {
    const std::int64_t block = WholeRows ? g.x() : g.y();
    const std::int64_t unit0 = WholeRows ? g.y() * rows_per_group : g.x();
    const std::int64_t unit1 = WholeRows ? std::min(units(), unit0 + rows_per_group) : unit0 + 1;
    Row w;
    w.c0 = block * Items;
    w.channels = a.out_c - w.c0;   // the items with a channel (all but in the last block)
    // Grouped: each output channel's group has group_in input channels, the first of item k's at first(k).
    // Where a group's output channels are a multiple of Items, the items of a group of items share one (uniform).
    w.uniform = !Grouped || group_out % Items == 0;
    w.first0 = 0;
    kernel::private_array<int, 1, Group> first;
    if constexpr (Grouped && !diagonal) {
      w.first0 = by_group_out.divide(w.c0) * group_in;
      if (!w.uniform)
        g.for_each_item_below(w.channels, [&](kernel::Item item) {
          first(item, 0) = int(by_group_out.divide(w.c0 + item.x) * group_in);
        });
    }
    kernel::private_array<float, P, Group> acc;   // grouped: each item's sums over the taps of the current pixels
    for (std::int64_t unit = unit0; unit < unit1;) {
      // A run of rows whose windows cover the same rows inside the image (columns_down): their pixels summed
      // alone along a row (at the edges) are summed in blocks down the run instead.
      set_row(w, unit);
      std::int64_t run = 1;
      if constexpr (columns_down)
        while (unit + run < unit1 && same_window_rows(w, unit + run)) ++run;
      for (std::int64_t r = 0; r < run; ++r) {
        if (r > 0) set_row(w, unit + r);
        const auto [row, segment] = by_segments.divmod(unit + r);
        const std::int64_t first_x = segment * row_pixels();
        const std::int64_t end_x = first_x + std::min(row_pixels(), a.out_w - first_x);
        const Columns c = columns(w, first_x, end_x);
        // One pass in order. A loop per kind of column (blocks, pairs, alone) made GCC's block-diagonal kernels a
        // third smaller and 2-8% slower on ResNeXt's groups of 4 and 8 (one Zen 5 core, interleaved rounds).
        for (std::int64_t ox = first_x; ox < end_x;) {
          if (ox >= c.begin && ox + P <= c.blocks_end) {
            if constexpr (!diagonal) convolve<P>(g, w, ox, 0, a.window_w, first, acc);
            else convolve_depthwise<P>(g, w, ox, 0, a.window_w, Walk::along_row);
            ox += P;
          } else if (diagonal && ox >= c.begin && ox + 2 <= c.pairs_end) {
            convolve_depthwise<2>(g, w, ox, 0, a.window_w, Walk::along_row);
            ox += 2;
          } else {
            if (run == 1) alone(g, w, ox, first, acc);
            ox += 1;
          }
        }
      }
      if constexpr (columns_down)
        if (run > 1) down_the_run(g, w, unit, run);
      unit += run;
    }
  }

  // How a row's pixels [first_x, end_x) are summed: [begin, blocks_end) in blocks of P and [blocks_end, pairs_end)
  // in pairs, all of them pixels with every tap inside the image along x ([x_lo, x_hi)); the others alone (the
  // row's edges, and the last inside pixel where blocks and pairs leave one). Grouped items that gather their
  // inputs sum every pixel alone.
  struct Columns {
    std::int64_t begin, blocks_end, pairs_end;
    PORTKERN_INLINE bool alone(std::int64_t ox) const { return ox < begin || ox >= pairs_end; }
  };
  PORTKERN_INLINE Columns columns(const Row& w, std::int64_t first_x, std::int64_t end_x) const {
    const std::int64_t begin = std::clamp(x_lo, first_x, end_x), end = std::max(std::min(x_hi, end_x), begin);
    const bool blocks = P > 1 && (diagonal || w.uniform);
    const std::int64_t blocks_end = blocks ? begin + (end - begin) / P * P : begin;
    const std::int64_t pairs_end = diagonal && P > 2 ? blocks_end + (end - blocks_end) / 2 * 2 : blocks_end;
    return {begin, blocks_end, pairs_end};
  }

  // Sets w's image, window rows and output row to unit's (a row, or a segment's row).
  PORTKERN_INLINE void set_row(Row& w, std::int64_t unit) const {
    const auto [row, segment] = by_segments.divmod(unit);
    const auto [n, oy] = by_out_h.divmod(row);
    w.n = n;
    inside(oy, a.stride_h, a.pad_top, a.dilation_h, a.window_h, a.in_h, w.r0, w.r1);
    w.iy0 = oy * a.stride_h - a.pad_top;
    w.out_row = row * a.out_w * a.out_c + w.c0;
  }
  // Whether unit's row is in w's image and its window covers the same rows inside the image, at least one (rows
  // of a run are then less than the image apart; with no row inside, a stride near 2^62 would overflow the step).
  PORTKERN_INLINE bool same_window_rows(const Row& w, std::int64_t unit) const {
    Row next = w;
    set_row(next, unit);
    return w.r1 > w.r0 && next.n == w.n && next.r0 == w.r0 && next.r1 == w.r1;
  }

  // How a block's pixels follow each other: along a row, or down a column (down_the_run).
  enum class Walk { along_row, down_column };

  // The pixel at ox of w's row, summed alone over its taps inside the image.
  template <class Group, class First, class Acc>
  PORTKERN_INLINE void alone(Group& g, const Row& w, std::int64_t ox, First& first, Acc& acc) const {
    std::int64_t s0, s1;
    inside(ox, a.stride_w, a.pad_left, a.dilation_w, a.window_w, a.in_w, s0, s1);
    if constexpr (!diagonal) convolve<1>(g, w, ox, s0, s1, first, acc);
    else convolve_depthwise<1>(g, w, ox, s0, s1, Walk::along_row);
  }

  // The pixels of a run of `run` rows from unit that their rows sum alone (those outside [x_lo, x_hi), and the
  // last inside one where blocks and pairs leave it), in blocks of P, pairs and single pixels down each column:
  // the run's rows share their window rows, so a column's pixels share their taps. A pixel summed alone leaves
  // its few sums' FMAs waiting on each other and loads its weights for itself; ResNeXt-50's layer4 (7 x 7
  // pixels) had 3 of every 7 pixels summed alone, 9 of 49 now. One Zen 5 core: layer3 (14 x 14) 1.12x, layer4
  // 1.06x (interleaved rounds, before the broadcasts' loop was unrolled by 2).
  template <class Group>
  PORTKERN_INLINE void down_the_run(Group& g, Row w, std::int64_t unit, std::int64_t run) const {
    const Columns c = columns(w, 0, a.out_w);
    for (std::int64_t ox = 0; ox < a.out_w; ++ox) {
      if (!c.alone(ox)) continue;
      std::int64_t s0, s1;
      inside(ox, a.stride_w, a.pad_left, a.dilation_w, a.window_w, a.in_w, s0, s1);
      for (std::int64_t r = 0; r < run;) {
        set_row(w, unit + r);
        if (r + P <= run) convolve_depthwise<P>(g, w, ox, s0, s1, Walk::down_column), r += P;
        else if (P > 2 && r + 2 <= run) convolve_depthwise<2>(g, w, ox, s0, s1, Walk::down_column), r += 2;
        else convolve_depthwise<1>(g, w, ox, s0, s1, Walk::down_column), r += 1;
      }
    }
  }

  // Depthwise (and Block): the outputs of Q consecutive pixels from ox on, whose taps along x are [s0, s1) (all
  // of them for Q > 1), summed over the taps in a diagonal fragment (item c's channel times its own filter value;
  // Block: its group's Block channels times their filter rows).
  template <int Q, class Group>
  PORTKERN_INLINE void convolve_depthwise(Group& g, const Row& w, std::int64_t ox, std::int64_t s0, std::int64_t s1,
                                          Walk walk) const {
    // From one pixel's input to the next's, worked out only where Q > 1, whose pixels' taps all lie inside the
    // image (a single pixel's stride may be far larger than it: 2^62 overflowed; fuzz_conv_desc).
    const std::int64_t step = Q == 1                    ? 0
                              : walk == Walk::along_row ? a.stride_w * a.in_c
                                                        : a.stride_h * a.in_w * a.in_c;
    const std::int64_t pixel_out = walk == Walk::along_row ? a.out_c : a.out_w * a.out_c;   // in the output
    const std::int64_t ix0 = ox * a.stride_w - a.pad_left;
    kernel::diagonal_fragment<float, Q, Group, Lanes> sums(g, w.channels);
    // From one tap to the next along x, where several lie inside the image (a single tap's dilation may be far
    // larger than the image: 2^62 overflowed; fuzz_conv_desc).
    const std::int64_t tap_step = s1 - s0 > 1 ? a.dilation_w * a.in_c : 0;
    const std::int64_t rows = w.r1 - w.r0;   // the window rows inside the image, and their taps [s0, s1)
    if (s1 > s0 && rows > 0) {
      const std::int64_t iy = w.iy0 + w.r0 * a.dilation_h, ix = ix0 + s0 * a.dilation_w;
      const float* in = a.input + ((w.n * a.in_h + iy) * a.in_w + ix) * a.in_c + w.c0;
      const float* f = a.filter + (w.r0 * a.window_w + s0) * block_channels * a.out_c + w.c0;
      // From one window row to the next, where several lie inside the image (as tap_step).
      const std::int64_t in_row = rows > 1 ? a.dilation_h * a.in_w * a.in_c : 0;
      const std::int64_t f_row = a.window_w * block_channels * a.out_c;
      if (Q == P && walk == Walk::along_row && s1 - s0 == a.window_w && sliding_window<Q>(g, sums, in, f)) {
        for (std::int64_t r = 1; r < rows; ++r) sliding_window<Q>(g, sums, in + r * in_row, f + r * f_row);
      } else if constexpr (block_channels == 1) {   // the whole window in one call, its rows the batches
        sums.fma_batches(g, in, step, f, rows, in_row, f_row, s1 - s0, tap_step, a.out_c);
      } else {
        for (std::int64_t r = 0; r < rows; ++r)
          sums.template fma_block<block_channels>(g, in + r * in_row, step, f + r * f_row, a.out_c, s1 - s0, tap_step,
                                                  block_channels * a.out_c);
      }
    }
    const std::int64_t out = w.out_row + ox * a.out_c;
    sums.for_each(g, [&](kernel::Item item, int q, float sum) {
      const std::int64_t at = out + q * pixel_out + item.x;
      a.output[at] = finish(sum, a, at, w.c0 + item.x);
    });
  }

  // Depthwise: a window row of a block of Q > 1 pixels, all its taps inside the image, as a sliding-window
  // product (fma_window: each input read once for the pixels that share it) where its width is 3, 5 or 7 and
  // the stride 1 or 2 dilations, and the back end's fragment prefers windows (CUDA); false where not. On an
  // H200, CUDA's segments of 4 pixels ran 1.02-1.03x / 1.04x as fast (geomean of two runs; 0.97-1.12x) on the 7
  // MobileNetV2 / EfficientNet-B0 and the 20 unseen depthwise layers. A single pixel shares nothing: with its
  // taps unrolled there the pixel mapping ran 0.96x (0.83-1.13x) on the 20 and 1.06x on the 7, its executed
  // instructions only 8% fewer: of a ConvNeXt 7 x 7 pixel's 1200, its 49 FMAs and 98 loads are an eighth, the
  // rest 64-bit address and index arithmetic and the pixel's set-up (ncu; the figures compare calls, each a fresh
  // machine).
  template <int Q, class Group, class Sums>
  PORTKERN_INLINE bool sliding_window(Group& g, Sums& sums, const float* in, const float* f) const {
    if constexpr (Grouped || Q == 1 || !Sums::prefers_windows) return false;
    else {
      const std::int64_t step = a.dilation_w * a.in_c;
      const auto taps = [&](auto ratio) {
        switch (a.window_w) {
          case 3: return sums.template fma_window<3, ratio()>(g, in, step, f, a.out_c), true;
          case 5: return sums.template fma_window<5, ratio()>(g, in, step, f, a.out_c), true;
          case 7: return sums.template fma_window<7, ratio()>(g, in, step, f, a.out_c), true;
          default: return false;
        }
      };
      if (window_ratio == 1) return taps(std::integral_constant<int, 1>{});
      if (window_ratio == 2) return taps(std::integral_constant<int, 2>{});
      return false;
    }
  }

  // Grouped: the outputs of Q consecutive pixels from ox on, whose taps along x are [s0, s1) (all of them for
  // Q > 1): a phase per tap and input channel, the item loop innermost, the Q sums of an item updated together.
  template <int Q, class Group, class First, class Acc>
  PORTKERN_INLINE void convolve(Group& g, const Row& w, std::int64_t ox, std::int64_t s0, std::int64_t s1,
                                First& first, Acc& acc) const {
    // From one pixel's input to the next's: used where Q > 1, whose pixels' taps all lie inside the image (a
    // single pixel's stride may be far larger than the image: 2^62 overflowed; fuzz_conv_desc).
    const std::int64_t step = Q > 1 ? a.stride_w * a.in_c : 0;
    const std::int64_t ix0 = ox * a.stride_w - a.pad_left;   // the input column of the first pixel's tap 0
    const std::int64_t out = w.out_row + ox * a.out_c;
    const float* filter = a.filter + w.c0;
    g.for_each_item_below(w.channels, [&](kernel::Item item) {
      PORTKERN_UNROLL
      for (int q = 0; q < Q; ++q) acc(item, q) = 0.f;
    });
    for (std::int64_t r = w.r0; r < w.r1; ++r)
      for (std::int64_t s = s0; s < s1; ++s) {
        const std::int64_t iy = w.iy0 + r * a.dilation_h, ix = ix0 + s * a.dilation_w;   // inside the image
        const float* in = a.input + ((w.n * a.in_h + iy) * a.in_w + ix) * a.in_c;
        const float* f = filter + (r * a.window_w + s) * group_in * a.out_c;
        if (w.uniform) {   // the items' channels all lie in one group: its input value is the same for every item
          for (std::int64_t c = 0; c < group_in; ++c, f += a.out_c) {
            float v[Q];
            PORTKERN_UNROLL
            for (int q = 0; q < Q; ++q) v[q] = in[q * step + w.first0 + c];
            g.for_each_item_below(w.channels, [&](kernel::Item item) {
              const float weight = f[item.x];
              PORTKERN_UNROLL
              for (int q = 0; q < Q; ++q) acc(item, q) += v[q] * weight;
            });
          }
        } else {
          for (std::int64_t c = 0; c < group_in; ++c, f += a.out_c)
            g.for_each_item_below(w.channels, [&](kernel::Item item) {
              const float weight = f[item.x];
              const float* x = in + first(item, 0) + c;
              PORTKERN_UNROLL
              for (int q = 0; q < Q; ++q) acc(item, q) += x[q * step] * weight;
            });
        }
      }
    g.for_each_item_below(w.channels, [&](kernel::Item item) {
      PORTKERN_UNROLL
      for (int q = 0; q < Q; ++q) {
        const std::int64_t at = out + q * a.out_c + item.x;
        a.output[at] = finish(acc(item, q), a, at, w.c0 + item.x);
      }
    });
  }
};

// The CPU's blocks of channels for the diagonal modes: 16 to 64, a multiple of 8 that splits out_c evenly, so
// that no block is narrower than a vector (200 in blocks of 56, 56, 56 and 32, not 64, 64, 64 and 8: a block
// narrower than a vector keeps its sums in memory). Calls f(std::integral_constant<int, Items>{}).
template <class F>
void with_cpu_block_channels(std::int64_t out_c, F&& f) {
  const std::int64_t blocks = (out_c + 63) / 64, per_block = (out_c + blocks - 1) / blocks;
  switch (std::clamp<std::int64_t>((per_block + 7) / 8, 2, 8)) {
    case 2: return f(std::integral_constant<int, 16>{});
    case 3: return f(std::integral_constant<int, 24>{});
    case 4: return f(std::integral_constant<int, 32>{});
    case 5: return f(std::integral_constant<int, 40>{});
    case 6: return f(std::integral_constant<int, 48>{});
    case 7: return f(std::integral_constant<int, 56>{});
    default: return f(std::integral_constant<int, 64>{});
  }
}

}  // namespace portkern::conv2d_impl
