// The `im2col` algorithm: the input patches of a chunk of output rows (im2col.hpp), one GEMM by the filter,
// the epilogue; any undilated convolution. Configurations: `whole` (one chunk as large as a GPU's scratch
// budget allows), `chunked` (chunks whose patches stay in the CPU's caches) and, on the CPU only,
// `in_place` (no patch matrix: the GEMM reads the patches from the image, in_place.hpp). Its registry entry.
#include <algorithm>

#include "conv2d/call.hpp"
#include "conv2d/im2col/im2col.hpp"
#include "conv2d/im2col/in_place.hpp"
#include "conv2d/registry.hpp"
#include "portkern/blas.hpp"

namespace portkern::conv2d_impl {

namespace {

void run_im2col(Queue& q, std::string_view config, const ConvArgs& a) {
  if (config == "im2col/in_place") return run_im2col_in_place(q, a);
  const bool chunked = config == "im2col/chunked";
  const std::int64_t width = a.window_h * a.window_w * a.in_c, rows = a.batch * a.out_h;   // checked by conv2d_complete
  const std::int64_t row_floats =
      checked_mul(a.out_w, width, conv2d_fn, "out_w * window_h * window_w * in_c (an im2col row)");
  // On the CPU the rows are split between the cores (for_each_core_part) when their patches outweigh what
  // that costs, each core packing the whole filter; a core's chunk of patches stays in its L2 cache (with
  // 0.5 MiB chunks conv1_1 of ResNet-50 ran at 350-366 GFLOP/s on 2 cores, with 4 MiB ones at 260-330).
  const bool cpu = q.device().is_cpu();
  const std::int64_t cores = core_parts(q, rows);
  const bool by_core = cores > 1 && rows * row_floats >= (cores - 1) * a.out_c * width;
  const std::int64_t parts = by_core ? cores : 1;
  const std::int64_t core_chunk = cache_chunk_bytes("PORTKERN_CONV2D_CHUNK_MB", 0.5);
  const std::int64_t budget = (chunked && cpu ? core_chunk * (by_core ? 1 : cores) : large_chunk_bytes) / 4;
  for_each_core_chunk(q, rows, parts, row_floats, budget, "conv2d scratch (im2col patches)",
                      [&](Queue& part_queue, std::int64_t r0, std::int64_t r1, float* cols) {
                        launch(part_queue, Im2col{a, r0, r1, cols});
                        gemm_then_epilogue(part_queue, a, r0 * a.out_w, r1 * a.out_w, width, cols);
                      });
}

}  // namespace

extern const AlgorithmEntry im2col_entry;
const AlgorithmEntry im2col_entry{
    "im2col",
    PORTKERN_CONV2D_NAMES("im2col/whole", "im2col/chunked", "im2col/in_place"),
    [](Backend backend) -> const std::vector<std::string>& {
      static const std::vector<std::string> cpu{"im2col/whole", "im2col/chunked", "im2col/in_place"};
      static const std::vector<std::string> gpu{"im2col/whole", "im2col/chunked"};
      return backend == Backend::cpu ? cpu : gpu;
    },
    [](const Device& device) { return std::string(device.is_cpu() ? "im2col/chunked" : "im2col/whole"); },
    dense_undilated,
    run_im2col};

}  // namespace portkern::conv2d_impl
