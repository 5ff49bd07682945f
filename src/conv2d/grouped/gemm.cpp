// grouped/gemm (gemm.hpp says what and when).
#include "conv2d/grouped/gemm.hpp"

#include <algorithm>

#include "conv2d/call.hpp"
#include "conv2d/im2col/im2col.hpp"
#include "gemm/fused.hpp"

namespace portkern::conv2d_impl {

void run_grouped_gemm(Queue& q, const ConvArgs& a) {
  const std::int64_t group_in = a.in_c / a.groups, group_out = a.out_c / a.groups;
  const std::int64_t width = a.window_h * a.window_w * group_in, rows = a.batch * a.out_h;
  const std::int64_t row_floats =
      checked_mul(a.out_w, width, conv2d_fn, "out_w * window_h * window_w * in_c / groups (a group's patch row)");
  const std::int64_t parts = core_parts(q, rows);
  // A core's chunk of one group's patches stays in its L2 cache, as im2col/chunked's do.
  const std::int64_t budget = cache_chunk_bytes("PORTKERN_CONV2D_CHUNK_MB", 0.5) / 4;
  const std::int64_t chunk = std::clamp<std::int64_t>(budget / row_floats, 1, (rows + parts - 1) / parts);
  for_each_core_part(
      q, rows, parts, "conv2d scratch (a channel group's patches)",
      [&](std::int64_t begin, std::int64_t end) { return std::min(chunk, end - begin) * row_floats; },
      [&](Queue& part_queue, std::int64_t begin, std::int64_t end, float* cols) {
        for (std::int64_t r0 = begin; r0 < end; r0 += chunk) {
          const std::int64_t r1 = std::min(end, r0 + chunk), pixels = (r1 - r0) * a.out_w;
          float* const output = a.output + r0 * a.out_w * a.out_c;
          const float* const residual = a.residual ? a.residual + r0 * a.out_w * a.out_c : nullptr;
          for (std::int64_t g = 0; g < a.groups; ++g) {
            launch(part_queue, Im2col{a, r0, r1, cols, g});
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
        }
      });
}

}  // namespace portkern::conv2d_impl
