// grouped/gemm (gemm.hpp says what and when).
#include "conv2d/grouped/gemm.hpp"

#include <algorithm>

#include "conv2d/call.hpp"
#include "conv2d/im2col/in_place.hpp"
#include "gemm/fused.hpp"
#include "portkern/gemm_packed.hpp"

namespace portkern::conv2d_impl {

namespace {

// The patches of channel group g for output rows [r0, r1) into cols (im2col.hpp's layout for one group: a row of
// window_h * window_w * in_c / groups values per output pixel, ordered (r, s, c)): a run of the group's channels
// per window tap, or zeros where the tap is in the padding. A plain loop: the kernel model's im2col, whose items
// are a group's lanes, spent more time than the GEMMs on these runs of 4-32 values.
void group_patches(const ConvArgs& a, std::int64_t r0, std::int64_t r1, std::int64_t g, float* cols) {
  const std::int64_t c = a.in_c / a.groups;
  float* to = cols;
  for (std::int64_t t = r0; t < r1; ++t) {
    const std::int64_t oy = t % a.out_h, n = t / a.out_h;
    const float* const image = a.input + n * a.in_h * a.in_w * a.in_c + g * c;
    for (std::int64_t ox = 0; ox < a.out_w; ++ox)
      for (std::int64_t r = 0; r < a.window_h; ++r) {
        const std::int64_t iy = oy * a.stride_h + r * a.dilation_h - a.pad_top;
        const bool row_inside = iy >= 0 && iy < a.in_h;
        for (std::int64_t s = 0; s < a.window_w; ++s, to += c) {
          const std::int64_t ix = ox * a.stride_w + s * a.dilation_w - a.pad_left;
          if (row_inside && ix >= 0 && ix < a.in_w) {   // the index worked out inside the image only
            const float* from = image + (iy * a.in_w + ix) * a.in_c;
            for (std::int64_t i = 0; i < c; ++i) to[i] = from[i];
          } else {
            for (std::int64_t i = 0; i < c; ++i) to[i] = 0.f;
          }
        }
      }
  }
}

}  // namespace

std::vector<GemmPackedA<float>> pack_group_filters(Queue& q, std::int64_t groups, std::int64_t out_c,
                                                   std::int64_t width, const float* filter) {
  const std::int64_t rows = out_c / groups;
  std::vector<GemmPackedA<float>> packed;
  packed.reserve(std::size_t(groups));
  for (std::int64_t g = 0; g < groups; ++g)
    packed.push_back(gemm_pack_a(q, Op::none, rows, width, filter + g * rows, out_c));
  return packed;
}

void run_grouped_gemm(Queue& q, const ConvArgs& a) {
  const std::int64_t group_in = a.in_c / a.groups, group_out = a.out_c / a.groups;
  const std::int64_t width = a.window_h * a.window_w * group_in, rows = a.batch * a.out_h;
  const std::int64_t row_floats =
      checked_mul(a.out_w, width, conv2d_fn, "out_w * window_h * window_w * in_c / groups (a group's patch row)");
  // The groups' filters in panels. Read in place instead (leading dimension out_c), a group's rows thrashed the
  // caches: 0.55-0.65 of oneDNN on ResNeXt-101 32x8d's layer4 (groups of 64, 2 Zen 5 cores).
  std::vector<GemmPackedA<float>> packed_here;
  if (!a.packed_filter) packed_here = pack_group_filters(q, a.groups, a.out_c, width, a.filter);
  const GemmPackedA<float>* const filters = a.packed_filter ? a.packed_filter : packed_here.data();
  // Each core its share of the (group, row) pairs, so that on layers of few rows (7 x 7) each reads the filters
  // of its groups only; the chunks of a group's rows whose patches stay in its L2 cache, as im2col/chunked's.
  const std::int64_t pairs = checked_mul(a.groups, rows, conv2d_fn, "groups * batch * out_h");
  const std::int64_t parts = core_parts(q, pairs);
  if (a.dilation_h == 1 && a.dilation_w == 1) {
    // Undilated: the group's patches read in place from a band of its channels' padded rows (im2col/in_place's
    // bands), bands of one group and one image each.
    run_bands(q, a, padded_image(a, group_in), filters, a.groups, parts);
    return;
  }
  const std::int64_t budget = cache_chunk_bytes("PORTKERN_CONV2D_CHUNK_MB", 0.5) / 4;
  const std::int64_t chunk = std::clamp<std::int64_t>(budget / row_floats, 1, (pairs + parts - 1) / parts);
  for_each_core_part(
      q, pairs, parts, "conv2d scratch (a channel group's patches)",
      [&](std::int64_t begin, std::int64_t end) { return std::min(chunk, end - begin) * row_floats; },
      [&](Queue& part_queue, std::int64_t begin, std::int64_t end, float* cols) {
        for (std::int64_t pair = begin; pair < end;) {
          const std::int64_t g = pair / rows, r0 = pair % rows, r1 = std::min({rows, r0 + chunk, r0 + end - pair});
          group_patches(a, r0, r1, g, cols);
          // Column-major: the group's outputs (group_out x pixels, ld out_c) = its filter (group_out x width) *
          // its patches (width x pixels).
          const std::int64_t first = g * group_out, pixels = (r1 - r0) * a.out_w, at = r0 * a.out_w * a.out_c + first;
          const gemm_impl::GemmEpilogue<float> epilogue{a.bias ? a.bias + first : nullptr,
                                                        a.residual ? a.residual + at : nullptr, a.relu};
          if (!gemm_impl::gemm_packed_with_epilogue(part_queue, Op::none, pixels, 1.f, filters[g], cols, width, 0.f,
                                                    a.output + at, a.out_c, epilogue, a.precision))
            epilogue.apply(group_out, pixels, a.output + at, a.out_c);   // host memory: a CPU queue
          pair += r1 - r0;
        }
      });
}

}  // namespace portkern::conv2d_impl
