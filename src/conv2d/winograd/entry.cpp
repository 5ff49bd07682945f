// The `winograd` algorithm (winograd.hpp): the input transform, alpha^2 batched GEMMs, the output transform,
// over chunks of tiles; configurations f2 (F(2x2, 3x3)) and f4 (F(4x4, 3x3)). Its registry entry, and the
// public API for weights transformed once (winograd_transform_filter, conv2d_winograd).
#include <algorithm>
#include <optional>

#include "conv2d/call.hpp"
#include "conv2d/registry.hpp"
#include "conv2d/winograd/winograd.hpp"
#include "portkern/blas.hpp"
#include "portkern/error.hpp"

namespace portkern::conv2d_impl {

namespace {

// The precision of Winograd's GEMMs: the call's, but never TF32. The transforms spread each product's error
// over up to 36 transformed operands of magnitudes up to 10x the original's, so TF32 rounding there broke the
// tf32 precision's bound: F(4x4, 3x3) reached a relative error of 1.3e-2 on the H100 (ResNet-50 layers, the
// conv2d tuning at tf32), F(2x2, 3x3) 4e-3, against 2^-10 for a direct product of TF32 operands.
Precision gemm_precision(Precision precision) {
  return precision == Precision::tf32 ? Precision::accurate : precision;
}

std::string why_not_winograd(const Conv2dDesc& d) {
  if (d.window_h != 3 || d.window_w != 3) return "winograd needs a 3x3 window";
  if (d.stride_h != 1 || d.stride_w != 1) return "winograd needs stride 1";
  return dense_undilated(d);
}

void transform_filter(const Queue& q, int tile, std::int64_t in_c, std::int64_t out_c, const float* filter, float* u) {
  if (tile == 2) return launch(q, WinogradFilterTransform<2>{in_c, out_c, filter, u});
  launch(q, WinogradFilterTransform<4>{in_c, out_c, filter, u});
}

// Winograd with the transformed filter `u`, or, when `u` is nullptr, with a.filter transformed into the call's
// scratch first. Each part of the tiles leases a block for V and the products of one chunk of tiles.
template <int M>
void run_winograd(Queue& q, const ConvArgs& a, const float* u) {
  constexpr int alpha = M + 2, positions = alpha * alpha;
  const char* fn = conv2d_fn;
  const std::int64_t tiles_h = (a.out_h + M - 1) / M, tiles_w = (a.out_w + M - 1) / M;
  const std::int64_t tiles = checked_product({a.batch, tiles_h, tiles_w}, fn, "Winograd tiles");
  // On the CPU each core gets a part of the layer whose transforms and products all run on it
  // (for_each_core_part): a part of the tiles where their data outweighs each core reading the whole
  // transformed filter, else a part of the output channels, each core transforming the whole input (the
  // smaller operand there) and reading its rows of the filter only, when there are enough tiles for a
  // core's GEMM (ResNet-50 conv5_4, 16 tiles of 512 channels: 0.60 -> 0.49 of oneDNN split by channels).
  const std::int64_t cores = core_parts(q, tiles);
  const bool by_tiles = cores > 1 && tiles * (a.in_c + a.out_c) >= (cores - 1) * a.in_c * a.out_c;
  constexpr std::int64_t channel_block = 16;   // a part's channels: whole vectors of the CPU lowering
  const std::int64_t channel_blocks = (a.out_c + channel_block - 1) / channel_block;
  constexpr std::int64_t min_tiles_by_channels = 32;
  const bool by_channels = !by_tiles && tiles >= min_tiles_by_channels && core_parts(q, channel_blocks) > 1;
  const std::int64_t parts = by_tiles ? cores : by_channels ? core_parts(q, channel_blocks) : 1;
  const std::int64_t budget =
      (q.device().is_cpu() ? cache_chunk_bytes("PORTKERN_CONV2D_WINOGRAD_MB", 8) / parts : large_chunk_bytes) / 4;
  const std::int64_t part_tiles = by_tiles ? (tiles + parts - 1) / parts : tiles;
  // A chunk holds a tile's V (in_c values a position) and its products for the part's output channels only, and
  // every chunk reads the part's whole rows of U again, so the part's tiles go in as few chunks as the budget
  // allows, of even sizes: Darknet-53's 13 x 13 x 512 -> 1024 layer, split by channels on 2 cores, had been
  // budgeted for all 1024 channels a tile and ran in chunks of 42 and 7 tiles, each reading 16.8 MB of U.
  const std::int64_t part_out_c =
      by_channels ? std::min(a.out_c, (channel_blocks + parts - 1) / parts * channel_block) : a.out_c;
  const std::int64_t per_tile =
      checked_mul(positions, checked_add(a.in_c, part_out_c, fn, "in_c + out_c"), fn, "Winograd floats per tile");
  const std::int64_t most = std::max<std::int64_t>(budget / per_tile, 1);
  // Floats between two positions' matrices: padded on the CPU (winograd_position_stride); on the GPU, where the
  // padding cost F(4x4) 6-9% on VGG-16's layers (H200, one run), as they are.
  auto position_stride = [&](std::int64_t floats) {
    return q.device().is_cpu() ? winograd_position_stride(floats) : floats;
  };
  // A chunk of `tiles` tiles' V and products for `channels` output channels.
  auto chunk_floats = [&](std::int64_t tiles, std::int64_t channels) {
    return positions * (position_stride(checked_mul(tiles, a.in_c, fn, "Winograd V")) +
                        position_stride(checked_mul(tiles, channels, fn, "Winograd products")));
  };
  const std::int64_t chunks = (part_tiles + most - 1) / most;
  const std::int64_t chunk = (part_tiles + chunks - 1) / chunks;
  std::optional<detail::ScratchPool::Lease> filter_scratch;
  if (!u) {
    filter_scratch.emplace(lease_floats(q, checked_product({positions, a.in_c, a.out_c}, fn, "the transformed filter"),
                                        "conv2d scratch (Winograd filter)"));
    transform_filter(q, M, a.in_c, a.out_c, a.filter, filter_scratch->as<float>());
    u = filter_scratch->as<float>();
  }
  // Tiles [begin, end) and output channels [c0, c1), with `v` a block of chunk tiles' V and products.
  auto run_part = [&](Queue& part_queue, std::int64_t begin, std::int64_t end, std::int64_t c0, std::int64_t c1,
                      float* v) {
    const std::int64_t channels = c1 - c0;
    ConvArgs part = a;
    part.out_c = channels;
    part.output = a.output + c0;
    part.bias = a.bias ? a.bias + c0 : nullptr;
    part.residual = a.residual ? a.residual + c0 : nullptr;
    for (std::int64_t t0 = begin; t0 < end; t0 += chunk) {
      const std::int64_t t1 = std::min(end, t0 + chunk), count = t1 - t0;
      const std::int64_t v_stride = position_stride(count * a.in_c), m_stride = position_stride(count * channels);
      float* m = v + positions * v_stride;
      const WinogradTiles range{tiles_h, tiles_w, t0, t1};
      launch(part_queue, WinogradInput<M>{a, range, v, v_stride});
      // For each position: products (channels x tiles) = U's rows c0.. (channels x in_c) * V (in_c x tiles),
      // column-major.
      gemm_strided_batched<float>(part_queue, Op::none, Op::none, channels, count, a.in_c, 1.f, u + c0, a.out_c,
                                  a.in_c * a.out_c, v, a.in_c, v_stride, 0.f, m, channels, m_stride, positions,
                                  {"", "", gemm_precision(a.precision)});
      launch(part_queue, WinogradOutput<M>{part, range, m, m_stride, a.out_c});
    }
  };
  const char* purpose = "conv2d scratch (Winograd tiles)";
  if (by_channels) {
    auto channel = [&](std::int64_t block) { return std::min(a.out_c, block * channel_block); };
    for_each_core_part(
        q, channel_blocks, parts, purpose,
        [&](std::int64_t b0, std::int64_t b1) { return chunk_floats(chunk, channel(b1) - channel(b0)); },
        [&](Queue& part_queue, std::int64_t b0, std::int64_t b1, float* v) {
          run_part(part_queue, 0, tiles, channel(b0), channel(b1), v);
        });
  } else {
    for_each_core_part(
        q, tiles, parts, purpose, [&](std::int64_t, std::int64_t) { return chunk_floats(chunk, a.out_c); },
        [&](Queue& part_queue, std::int64_t begin, std::int64_t end, float* v) {
          run_part(part_queue, begin, end, 0, a.out_c, v);
        });
  }
}

void run(Queue& queue, std::string_view config, const ConvArgs& a) {
  if (config == "winograd/f2") run_winograd<2>(queue, a, nullptr);
  else run_winograd<4>(queue, a, nullptr);
}

}  // namespace

extern const AlgorithmEntry winograd_entry;
const AlgorithmEntry winograd_entry{"winograd",
                                    PORTKERN_CONV2D_NAMES("winograd/f2", "winograd/f4"),
                                    PORTKERN_CONV2D_BUILT("winograd/f2", "winograd/f4"),
                                    [](const Device&) { return std::string("winograd/f4"); },
                                    why_not_winograd,
                                    run};

}  // namespace portkern::conv2d_impl

namespace portkern {

using namespace conv2d_impl;

WinogradFilter winograd_transform_filter(Queue& queue, std::int64_t in_c, std::int64_t out_c, const float* filter,
                                         int tile) {
  const char* f = "portkern::winograd_transform_filter";
  require(tile == 2 || tile == 4, f, "tile", tile, "2 (F(2x2, 3x3)) or 4 (F(4x4, 3x3))");
  require(in_c >= 1, f, "in_c", in_c, ">= 1");
  require(out_c >= 1, f, "out_c", out_c, ">= 1");
  queue.check_pointer(filter, f, "filter");
  WinogradFilter w;
  w.tile_ = tile;
  w.in_c_ = in_c;
  w.out_c_ = out_c;
  w.data_ = Buffer<float>(queue.device(), checked_product({tile + 2, tile + 2, in_c, out_c}, f, "(tile + 2)^2 * in_c * out_c"),
                          "a Winograd-transformed filter");
  transform_filter(queue, tile, in_c, out_c, filter, w.data_.data());
  return w;
}

void conv2d_winograd(Queue& queue, const Conv2dDesc& desc, const float* input, const WinogradFilter& filter,
                     float* output, Precision precision) {
  const char* fn = conv2d_fn;
  const Conv2dDesc d = conv2d_complete(desc);
  require(filter.tile() == 2 || filter.tile() == 4, fn, "filter.tile()", filter.tile(),
          "2 or 4 (a filter made by winograd_transform_filter)");
  if (const std::string why = why_not_winograd(d); !why.empty())
    fail(fn, "cannot use winograd for this descriptor: " + why);
  require(filter.in_c() == d.in_c, fn, "filter.in_c()", filter.in_c(), "desc.in_c = " + std::to_string(d.in_c));
  require(filter.out_c() == d.out_c, fn, "filter.out_c()", filter.out_c(), "desc.out_c = " + std::to_string(d.out_c));
  require(filter.device() == queue.device(), fn, "filter.device()", filter.device().name(),
          "the queue's device " + queue.device().name());
  check_pointers(queue, d, input, filter.data(), output);
  ConvArgs a = make_args(d, input, nullptr, output, precision);
  const auto residual_copy = separate_residual(queue, a);
  if (filter.tile() == 2) run_winograd<2>(queue, a, filter.data());
  else run_winograd<4>(queue, a, filter.data());
}

}  // namespace portkern
