// grouped/gemm (gemm.hpp says what and when).
#include "conv2d/grouped/gemm.hpp"

#include "conv2d/call.hpp"
#include "gemm/fused.hpp"

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

void run_grouped_gemm(Queue& q, const ConvArgs& a) {
  const std::int64_t group_in = a.in_c / a.groups, group_out = a.out_c / a.groups;
  const std::int64_t width = a.window_h * a.window_w * group_in, rows = a.batch * a.out_h;
  const std::int64_t row_floats =
      checked_mul(a.out_w, width, conv2d_fn, "out_w * window_h * window_w * in_c / groups (a group's patch row)");
  const std::int64_t parts = core_parts(q, rows);
  // A core's chunk of one group's patches stays in its L2 cache, as im2col/chunked's do.
  const std::int64_t budget = cache_chunk_bytes("PORTKERN_CONV2D_CHUNK_MB", 0.5) / 4;
  for_each_core_chunk(
      q, rows, parts, row_floats, budget, "conv2d scratch (a channel group's patches)",
      [&](Queue& part_queue, std::int64_t r0, std::int64_t r1, float* cols) {
        const std::int64_t pixels = (r1 - r0) * a.out_w;
        float* const output = a.output + r0 * a.out_w * a.out_c;
        const float* const residual = a.residual ? a.residual + r0 * a.out_w * a.out_c : nullptr;
        for (std::int64_t g = 0; g < a.groups; ++g) {
          group_patches(a, r0, r1, g, cols);
          // Column-major: the group's outputs (group_out x pixels, ld out_c) = its filter rows (group_out x
          // width, ld out_c) * its patches (width x pixels).
          const std::int64_t first = g * group_out;
          const gemm_impl::GemmEpilogue<float> epilogue{a.bias ? a.bias + first : nullptr,
                                                        residual ? residual + first : nullptr, a.relu};
          if (!gemm_impl::gemm_with_epilogue(part_queue, Op::none, Op::none, group_out, pixels, width, 1.f,
                                             a.filter + first, a.out_c, cols, width, 0.f, output + first, a.out_c,
                                             epilogue, {"", "", a.precision}))
            epilogue.apply(group_out, pixels, output + first, a.out_c);   // host memory: a CPU queue
        }
      });
}

}  // namespace portkern::conv2d_impl
