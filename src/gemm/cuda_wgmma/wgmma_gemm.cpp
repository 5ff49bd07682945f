// The cuda_wgmma family's choice of kernel (wgmma_gemm.hpp): one row: the matrix-vector product; small k: the
// small-k kernel; else on compute capability 9.0 the wgmma pipeline, after copying any operand whose layout the
// copy engine cannot take, with the tile width and split of k that finish first; elsewhere the SIMT fallback.
#include "gemm/cuda_wgmma/wgmma_gemm.hpp"

#include <cuda_runtime.h>

#include <cstdlib>
#include <optional>
#include <string_view>

#include "gemm/cuda_wgmma/launch.hpp"
#include "gemm/scale.hpp"
#include "runtime/scratch.hpp"

namespace portkern::gemm_impl::cuda_wgmma {

namespace {

constexpr const char* who = "portkern::gemm (cuda_wgmma)";
constexpr std::int64_t values_per_16_bytes = 8;

// PORTKERN_WGMMA_KERNEL=64|128|256 forces the wgmma pipeline at a tile width, =small_k, =gemv or =simt those
// kernels where they apply (measurement and tests only).
std::string_view forced() {
  const char* f = std::getenv("PORTKERN_WGMMA_KERNEL");
  return f ? f : "";
}

// What the copy engine needs of one operand: a 16-byte aligned base, its leading dimension and batch stride
// multiples of 16 bytes (a stride of 0 repeats one matrix, which a tensor map cannot).
bool copyable(const void* x, std::int64_t ld, std::int64_t stride, std::int64_t batch) {
  return reinterpret_cast<std::uintptr_t>(x) % 16 == 0 && ld % values_per_16_bytes == 0 &&
         (batch == 1 || (stride > 0 && stride % values_per_16_bytes == 0));
}

bool fits(const Problem& p) {   // the copy engine's coordinates are 32-bit
  constexpr std::int64_t limit = std::int64_t(1) << 31;
  return p.m < limit && p.n < limit && p.k < limit && p.batch < limit;
}

// The plan that finishes first under a model in microseconds, calibrated on the H100 (docs/precision.md): the
// persistent grid runs ceil(items / multiprocessors) rounds of items (tiles x parts of k), an item costing its
// k-tiles at its width's time per k-tile plus writing its tile of C; once, filling the pipeline; and with k
// split, a pass scaling C by beta and the parts' atomic additions into C (about 1 microsecond per MB).
// Wide tiles read less shared memory per product; narrow ones and split k fill the GPU on smaller products.
struct Width {
  int columns;
  double k_tile_us;   // one 64-deep k-tile of a 128 x columns tile on one multiprocessor
};
constexpr Width widths[] = {{256, 0.84}, {128, 0.49}, {64, 0.37}};
constexpr double fill_us = 1.5, epilogue_us_per_128_columns = 0.25, scale_pass_us = 3, atomic_us_per_byte = 1e-6;
constexpr int max_splits = 16;

Plan plan_for(const Problem& p, int multiprocessors) {
  const std::int64_t k_tiles = (p.k + 63) / 64;
  Plan best;
  double best_us = -1;
  for (const Width& w : widths) {
    if (std::string_view f = forced(); !f.empty() && f != std::to_string(w.columns)) continue;
    const std::int64_t tiles = (p.m + 127) / 128 * ((p.n + w.columns - 1) / w.columns) * p.batch;
    for (int splits = 1; splits <= max_splits && splits <= k_tiles; ++splits) {
      const std::int64_t per_split = (k_tiles + splits - 1) / splits;
      if (splits > 1 && (k_tiles + per_split - 1) / per_split != splits) continue;   // the same as fewer parts
      const double rounds = double((tiles * splits + multiprocessors - 1) / multiprocessors);
      double us = fill_us + rounds * (double(per_split) * w.k_tile_us + epilogue_us_per_128_columns * w.columns / 128);
      if (splits > 1) us += scale_pass_us + atomic_us_per_byte * 4.0 * double(splits * p.m * p.n * p.batch);
      if (best_us < 0 || us < best_us) best = {w.columns, splits}, best_us = us;
    }
  }
  return best;
}

enum class Kernel { wgmma, small_k, gemv, simt };

struct Route {
  Kernel kernel = Kernel::simt;
  Plan plan;
  bool repack_a = false, repack_b = false;
};

// One row (gemv_fits): the matrix-vector product; small k (small_k_wins): the small-k kernel, bound by writing
// C; else wgmma on compute capability 9.0 (sm_90), the SIMT fallback elsewhere.
Route route_for(const Device& device, const Problem& p) {
  const std::string_view f = forced();
  if (f == "simt") return {};
  if ((f.empty() || f == "gemv") && gemv_fits(p)) return {Kernel::gemv};
  if ((f.empty() && small_k_wins(p)) || (f == "small_k" && small_k_fits(p))) return {Kernel::small_k};
  const DeviceProperties& here = device.properties();
  if (here.arch != "sm_90" || !fits(p)) return {};
  return {Kernel::wgmma, plan_for(p, here.compute_units), !copyable(p.a, p.lda, p.stride_a, p.batch),
          !copyable(p.b, p.ldb, p.stride_b, p.batch)};
}

std::int64_t round_up(std::int64_t x) { return (x + values_per_16_bytes - 1) / values_per_16_bytes * values_per_16_bytes; }

}  // namespace

std::string kernel_for(const Device& device, Input, const Problem& p) {
  const Route r = route_for(device, p);
  if (r.kernel == Kernel::simt) return "simt";
  if (r.kernel == Kernel::small_k) return "small_k";
  if (r.kernel == Kernel::gemv) return "gemv";
  std::string name = "wgmma_128x" + std::to_string(r.plan.columns);
  if (r.plan.splits > 1) name += "_split" + std::to_string(r.plan.splits);
  if (r.repack_a || r.repack_b) name += "_repacked";
  return name;
}

void run(Queue& queue, Input input, const Problem& original) {
  const auto stream = static_cast<cudaStream_t>(queue.native_stream());
  const Route r = route_for(queue.device(), original);
  if (r.kernel == Kernel::simt) return launch_simt(input, original, stream);
  if (r.kernel == Kernel::small_k) return launch_small_k(input, original, stream);
  if (r.kernel == Kernel::gemv) return launch_gemv(input, original, stream);
  Problem p = original;
  // Operands the copy engine cannot read, rewritten into scratch memory (kept until the kernels that read
  // them have been queued: the pool's next lease is by a call on this queue's stream, which runs after them).
  std::optional<detail::ScratchPool::Lease> a_copy, b_copy;
  auto repack = [&](std::optional<detail::ScratchPool::Lease>& copy, const void*& x, std::int64_t& ld,
                    std::int64_t& stride, std::int64_t inner, std::int64_t outer, const char* purpose) {
    const std::int64_t ld_copy = round_up(inner);
    copy.emplace(queue.scratch_pool().lease(std::size_t(ld_copy * outer * p.batch * 2), purpose));
    launch_repack(x, inner, outer, ld, stride, p.batch, copy->as<void>(), ld_copy, stream);
    x = copy->as<void>(), ld = ld_copy, stride = ld_copy * outer;
  };
  if (r.repack_a) repack(a_copy, p.a, p.lda, p.stride_a, p.trans_a ? p.k : p.m, p.trans_a ? p.m : p.k, "wgmma GEMM: A");
  if (r.repack_b) repack(b_copy, p.b, p.ldb, p.stride_b, p.trans_b ? p.n : p.k, p.trans_b ? p.k : p.n, "wgmma GEMM: B");
  if (r.plan.splits > 1)   // the parts add into beta * C
    scale_cuda(queue, ScaleMatrix<float>{p.m, p.n, p.beta, p.c, p.ldc, p.stride_c}, p.batch);
  launch_wgmma(input, r.plan, p, queue.device().properties().compute_units, stream);
}

}  // namespace portkern::gemm_impl::cuda_wgmma
