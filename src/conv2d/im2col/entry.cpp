// The `im2col` algorithm: the input patches of a chunk of output rows (im2col.hpp), one GEMM by the filter,
// the epilogue; any undilated convolution. Configurations: `whole` (one chunk as large as a GPU's scratch
// budget allows) and `chunked` (chunks whose patches stay in the CPU's caches). Its registry entry.
#include <algorithm>

#include "conv2d/call.hpp"
#include "conv2d/im2col/im2col.hpp"
#include "conv2d/registry.hpp"
#include "portkern/blas.hpp"

namespace portkern::conv2d_impl {

namespace {

void run_im2col(Queue& q, std::string_view config, const ConvArgs& a) {
  const bool chunked = config == "im2col/chunked";
  const std::int64_t width = a.window_h * a.window_w * a.in_c, rows = a.batch * a.out_h;   // checked by conv2d_complete
  const std::int64_t row_floats =
      checked_mul(a.out_w, width, conv2d_fn, "out_w * window_h * window_w * in_c (an im2col row)");
  const std::int64_t budget =
      (chunked && q.device().is_cpu() ? cache_chunk_bytes("PORTKERN_CONV2D_CHUNK_MB") : large_chunk_bytes) / 4;
  const std::int64_t chunk = std::clamp<std::int64_t>(budget / row_floats, 1, rows);
  const auto scratch = lease_floats(q, chunk * row_floats, "conv2d scratch (im2col patches)");
  float* cols = scratch.as<float>();
  for (std::int64_t r0 = 0; r0 < rows; r0 += chunk) {
    const std::int64_t r1 = std::min(rows, r0 + chunk), p0 = r0 * a.out_w, p1 = r1 * a.out_w;
    launch(q, Im2col{a, r0, r1, cols});
    // Column-major: output (out_c x pixels) = filter (out_c x width) * patches (width x pixels).
    gemm<float>(q, Op::none, Op::none, a.out_c, p1 - p0, width, 1.f, a.filter, a.out_c, cols, width, 0.f,
                a.output + p0 * a.out_c, a.out_c);
    bias_relu(q, a, p0, p1);
  }
}

}  // namespace

extern const AlgorithmEntry im2col_entry;
const AlgorithmEntry im2col_entry{
    "im2col",
    PORTKERN_CONV2D_NAMES("im2col/whole", "im2col/chunked"),
    PORTKERN_CONV2D_NAMES("im2col/whole", "im2col/chunked"),
    [](const Device& device) { return std::string(device.is_cpu() ? "im2col/chunked" : "im2col/whole"); },
    undilated,
    run_im2col};

}  // namespace portkern::conv2d_impl
