// im2col/in_place (in_place.hpp says what and when).
#include "conv2d/im2col/in_place.hpp"

#include <algorithm>
#include <cstring>
#include <optional>

#include "conv2d/call.hpp"
#include "gemm/cpu_packed/prepacked.hpp"
#include "portkern/gemm_packed.hpp"
#include "portkern/kernel/cpu/microkernel.hpp"

namespace portkern::conv2d_impl {

namespace {

using i64 = std::int64_t;

// Padded row `row` of image n (row - pad_top of the input, or zeros) into dst: p.w * p.channels floats, the
// channels of each pixel from `channel` on.
void pad_row(const ConvArgs& a, const PaddedImage& p, i64 channel, i64 n, i64 row, float* dst) {
  const i64 c = p.channels, row_floats = p.row_floats, iy = row - a.pad_top;
  if (iy < 0 || iy >= a.in_h) {
    std::memset(dst, 0, std::size_t(row_floats) * sizeof(float));
    return;
  }
  // The input's columns that land inside the row, after pad_left zero columns.
  const i64 left_pixels = std::min(a.pad_left, p.w), inside_pixels = std::clamp<i64>(p.w - a.pad_left, 0, a.in_w);
  const i64 left = left_pixels * c, inside = inside_pixels * c;
  const float* from = a.input + (n * a.in_h + iy) * a.in_w * a.in_c + channel;
  std::memset(dst, 0, std::size_t(left) * sizeof(float));
  if (c == a.in_c) {
    std::memcpy(dst + left, from, std::size_t(inside) * sizeof(float));
  } else {   // a channel group's run of each pixel
    for (i64 x = 0; x < inside_pixels; ++x)
      std::memcpy(dst + left + x * c, from + x * a.in_c, std::size_t(c) * sizeof(float));
  }
  std::memset(dst + left + inside, 0, std::size_t(row_floats - left - inside) * sizeof(float));
}

// The patch-row kernels (portkern/kernel/cpu/microkernel.hpp) that multiply whole output rows of `a` by `filter`
// (a channel group's, p.channels channels a pixel), one per panel of the packed filter: first layers, whose
// filter is one depth block (window_h * window_w * channels values), on rows at least a tile wide, where the set
// has kernels for their column step (stride_w * channels). Empty (`full` nullptr) where these do not apply.
// MobileNetV3's stem (3x3/2, 3 -> 16) ran 0.63 of oneDNN through the tile-by-tile patch kernels.
struct RowKernels {
  kernel::cpu::PatchRowKernel<float> full = nullptr, last = nullptr;   // of the panels but the last; of the last
  i64 panels = 0, mr = 0, lanes = 0;
  int last_rows = 0;   // in the last panel's last vector
};
RowKernels patch_row_kernels(const ConvArgs& a, const PaddedImage& p, const GemmPackedA<float>& filter) {
  const GemmPanelLayout& l = filter.layout();
  const kernel::cpu::MicroKernels<float>* set = kernel::cpu::microkernels<float>(l.isa);
  // One depth block, and a panel that stays in L1 while a row's tiles stream it (Blocking::patch_row_panel_bytes).
  if (!set || l.k > l.kc || l.k * std::min(l.m, l.mr) * i64(sizeof(float)) > set->blocking.patch_row_panel_bytes)
    return {};
  const i64 lanes = set->blocking.lanes, panels = (l.m + l.mr - 1) / l.mr;
  const i64 full_vectors = l.mr / lanes, last_vectors = (l.m - (panels - 1) * l.mr + lanes - 1) / lanes;
  auto kernel = [&](i64 vectors) -> kernel::cpu::PatchRowKernel<float> {
    if (vectors > kernel::cpu::max_row_vectors || a.out_w < set->blocking.patch_row_nr[vectors - 1]) return nullptr;
    return set->patch_row_kernel(vectors, a.stride_w * p.channels);
  };
  RowKernels k{kernel(full_vectors), kernel(last_vectors), panels, l.mr, lanes,
               int(l.m - (l.m - 1) / lanes * lanes)};
  if (!k.last || (panels > 1 && !k.full)) return {};
  if (!k.full) k.full = k.last;
  return k;
}

// Output rows [begin, end) as multiply_rows below, by the patch-row kernels `kernels` (patch_row_kernels), on the
// calling thread: each output row by every panel in turn, while its window rows are in L1.
void multiply_whole_rows(const ConvArgs& a, const PaddedImage& p, const GemmPackedA<float>& filter, i64 group,
                         const float* image, i64 first, i64 begin, i64 end, const RowKernels& kernels) {
  const i64 channel = group * filter.m(), k = filter.k();
  for (i64 t = begin; t < end; ++t) {
    const float* rows = image + (t / a.out_h * p.h + t % a.out_h * a.stride_h - first) * p.row_floats;
    for (i64 panel = 0; panel < kernels.panels; ++panel) {
      const bool last = panel == kernels.panels - 1;
      const i64 row0 = panel * kernels.mr, at = t * a.out_w * a.out_c + channel + row0;
      (last ? kernels.last : kernels.full)(a.out_w, filter.data() + row0 * k, rows, a.window_h,
                                           a.window_w * p.channels, p.row_floats, a.output + at, a.out_c,
                                           last ? kernels.last_rows : int(kernels.lanes),
                                           a.bias ? a.bias + channel + row0 : nullptr,
                                           a.residual ? a.residual + at : nullptr, a.relu);
    }
  }
}

// Output rows [begin, end) of the batch's (image n, row y) rows by the filter of channel group `group`, on
// `threads`: where each pixel's patch starts in `image` (the batch's padded images from its padded row `first`
// on, n * p.h + row counting across images), then the GEMM of those pixels, the epilogue on each tile.
void multiply_rows(const ConvArgs& a, const PaddedImage& p, const GemmPackedA<float>& filter, i64 group,
                   const float* image, i64 first, i64 begin, i64 end, i64* offsets, int threads) {
  if (threads == 1)
    if (const RowKernels row_kernels = patch_row_kernels(a, p, filter); row_kernels.full)
      return multiply_whole_rows(a, p, filter, group, image, first, begin, end, row_kernels);
  const i64 row_floats = p.row_floats, run = a.window_w * p.channels, channel = group * filter.m();
  const i64 at = begin * a.out_w * a.out_c + channel;
  // Neighbours' patches stride_w * channels apart, within a padded row; with one pixel a row the stride may be
  // anything (a huge one would overflow), and no patch has a neighbour.
  const i64 column_step = a.out_w > 1 ? a.stride_w * p.channels : 1;
  for (i64 t = begin, pixel = 0; t < end; ++t) {
    const i64 row = t / a.out_h * p.h + t % a.out_h * a.stride_h - first;
    for (i64 x = 0; x < a.out_w; ++x) offsets[pixel++] = row * row_floats + x * column_step;
  }
  gemm_impl::cpu_packed::PatchColumns<float> patches{image, offsets, run, row_floats - run, column_step};
  if (p.skips_border_rows) patches.rows = {begin, a.out_w, a.out_h, a.stride_h, a.pad_top, a.in_h};
  gemm_impl::cpu_packed::run_prepacked_patches(
      filter.layout(), filter.data(), (end - begin) * a.out_w, 1.f, patches, 0.f, a.output + at, a.out_c, threads,
      gemm_impl::GemmEpilogue<float>{a.bias ? a.bias + channel : nullptr, a.residual ? a.residual + at : nullptr,
                                     a.relu});
}

// PaddedImage::skips_border_rows: a tile's depth of 256 or more, so that working out which rows it needs costs
// little beside the multiply. A 3x3 window on a 7 x 7 image: 2 of 21 rows are border (ResNet-50's conv5_4
// 1.07-1.10x); on 3-channel images of 256-416 pixels (a depth of 27) the per-tile work cost 3-6% and saved
// nothing. Computed once per layer (padded_image), not per band.
bool skips_border_rows(const ConvArgs& a, i64 channels) {
  if (a.window_h * a.window_w * channels < 256) return false;
  i64 border = 0;
  for (i64 y = 0; y < a.out_h; ++y) {
    const i64 top = y * a.stride_h - a.pad_top;   // input row of window row 0
    border += std::clamp<i64>(-top, 0, a.window_h) + std::clamp<i64>(top + a.window_h - a.in_h, 0, a.window_h);
  }
  return border * 50 >= a.out_h * a.window_h;
}

// The rows of a band for `rows` output rows.
i64 band_rows(const ConvArgs& a, i64 rows) { return (rows - 1) * a.stride_h + a.window_h; }

// Output rows a band holds: as many as keep its padded rows in a core's cache (0.5 MiB, PORTKERN_CONV2D_CHUNK_MB),
// from 1 to `most`.
i64 band_chunk(const ConvArgs& a, const PaddedImage& p, i64 most) {
  const i64 budget = cache_chunk_bytes("PORTKERN_CONV2D_CHUNK_MB", 0.5) / i64(sizeof(float)) / p.row_floats;
  return std::clamp<i64>((budget - a.window_h) / a.stride_h + 1, 1, std::max<i64>(most, 1));
}

// The floats of the scratch run_band needs for bands of up to `rows` output rows (the band, then the patch
// offsets).
i64 band_floats(const ConvArgs& a, const PaddedImage& p, i64 rows) {
  const i64 band = checked_mul(band_rows(a, rows), p.row_floats, conv2d_fn, "a padded image band");
  return checked_add(band, checked_mul(rows, a.out_w * i64(sizeof(i64) / sizeof(float)), conv2d_fn, "patch offsets"),
                     conv2d_fn, "a padded image band");
}

// Output rows [begin, end), all of one image, of channel group `group` on the calling thread: the band, then its
// GEMM.
void run_band(const ConvArgs& a, const PaddedImage& p, const GemmPackedA<float>& filter, i64 group, i64 begin,
              i64 end, float* scratch) {
  const i64 n = begin / a.out_h, y0 = begin % a.out_h, row_floats = p.row_floats;
  const i64 first = y0 * a.stride_h, last = std::min(p.h, y0 * a.stride_h + band_rows(a, end - begin));
  i64* offsets = reinterpret_cast<i64*>(scratch);   // the lease is aligned for any type
  float* band = scratch + (end - begin) * a.out_w * i64(sizeof(i64) / sizeof(float));
  for (i64 row = first; row < last; ++row)
    pad_row(a, p, group * p.channels, n, row, band + (row - first) * row_floats);
  multiply_rows(a, p, filter, group, band, n * p.h + first, begin, end, offsets, 1);
}

}  // namespace

PaddedImage padded_image(const ConvArgs& a, i64 channels) {
  const i64 reach_h = (a.out_h - 1) * a.stride_h + a.window_h, reach_w = (a.out_w - 1) * a.stride_w + a.window_w;
  const bool copied =
      channels != a.in_c || a.pad_top != 0 || a.pad_left != 0 || reach_h > a.in_h || reach_w > a.in_w;
  const i64 h = copied ? reach_h : a.in_h, w = copied ? reach_w : a.in_w;
  return {h, w, channels, checked_mul(w, channels, conv2d_fn, "a padded image row"), copied,
          skips_border_rows(a, channels)};
}

void run_bands(Queue& q, const ConvArgs& a, const PaddedImage& p, const GemmPackedA<float>* filters, i64 groups,
               i64 parts) {
  const i64 rows = a.batch * a.out_h, pairs = checked_mul(groups, rows, conv2d_fn, "groups * batch * out_h");
  const i64 chunk = band_chunk(a, p, (pairs + parts - 1) / parts);
  for_each_core_part(
      q, pairs, parts, "conv2d scratch (a padded band of the image)",
      [&](i64, i64) { return band_floats(a, p, chunk); },
      [&](Queue&, i64 begin, i64 end, float* scratch) {
        for (i64 pair = begin; pair < end;) {   // bands of one group and one image each
          const i64 g = pair / rows, r0 = pair % rows;
          const i64 r1 = std::min({rows, r0 + chunk, r0 + end - pair, (r0 / a.out_h + 1) * a.out_h});
          run_band(a, p, filters[g], g, r0, r1, scratch);
          pair += r1 - r0;
        }
      });
}

void run_im2col_in_place(Queue& q, const ConvArgs& a) {
  const i64 width = a.window_h * a.window_w * a.in_c, pixels = a.batch * a.out_h * a.out_w;
  const PaddedImage p = padded_image(a, a.in_c);
  // The filter in panels: packed once by the caller (conv2d_pack_filter), else here.
  GemmPackedA<float> packed_here;
  if (!a.packed_filter) packed_here = gemm_pack_a(q, Op::none, a.out_c, width, a.filter, a.out_c);
  const GemmPackedA<float>& filter = a.packed_filter ? *a.packed_filter : packed_here;
  const i64 row_floats = p.row_floats, rows = a.batch * a.out_h;

  // A convolution that pads reads a padded copy of the image, made in bands of output rows whose padded rows stay
  // in the core's cache (0.5 MiB, PORTKERN_CONV2D_CHUNK_MB), each core copying and multiplying its own share of the
  // rows (for_each_core_part). One copy of the whole image ahead of a GEMM on every core went through memory where
  // the image outgrows the caches (Darknet-53 stage1_down, 22 MB: 0.74 -> 0.87 of oneDNN on the 2-core Xeon); the
  // copy itself still costs 5-15% of ResNet-50's stride-2 layers (the same layers unpadded, same runs;
  // data/results/xeon-2026-11-28-bands/). Few rows (fewer than 4 a core) are shared out by the GEMM instead, which
  // also splits the filter's rows.
  const i64 cores = core_parts(q, rows);
  if (p.copied && (cores == 1 || rows >= 4 * cores)) {
    run_bands(q, a, p, &filter, 1, cores);
    return;
  }

  // The input read in place by the patch-row kernel: each core its share of the rows.
  if (const RowKernels row_kernels = p.copied ? RowKernels{} : patch_row_kernels(a, p, filter); row_kernels.full) {
#pragma omp parallel for schedule(static) num_threads(int(cores)) if (cores > 1)
    for (i64 part = 0; part < cores; ++part)
      multiply_whole_rows(a, p, filter, 0, a.input, 0, rows * part / cores, rows * (part + 1) / cores, row_kernels);
    return;
  }

  std::optional<portkern::detail::ScratchPool::Lease> image_lease;
  const float* image = a.input;
  if (p.copied) {
    image_lease.emplace(lease_floats(q, checked_product({a.batch, p.h, p.w, p.channels}, conv2d_fn, "the padded image"),
                                     "conv2d scratch (padded image)"));
    float* padded = image_lease->as<float>();
    const i64 padded_rows = a.batch * p.h;
#pragma omp parallel for schedule(static) num_threads(q.cpu_threads()) if (padded_rows * row_floats > (i64(1) << 15))
    for (i64 row = 0; row < padded_rows; ++row) pad_row(a, p, 0, row / p.h, row % p.h, padded + row * row_floats);
    image = padded;
  }
  portkern::detail::ScratchPool::Lease offsets_lease = q.scratch_pool().lease(
      checked_bytes(pixels, sizeof(i64), conv2d_fn, "patch offsets"), "conv2d scratch (patch offsets)");
  multiply_rows(a, p, filter, 0, image, 0, 0, rows, offsets_lease.as<i64>(), q.cpu_threads());
}

}  // namespace portkern::conv2d_impl
