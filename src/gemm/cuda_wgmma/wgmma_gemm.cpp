// The cuda_wgmma family's choice of kernel (wgmma_gemm.hpp). 16-bit inputs: one row: the matrix-vector
// product; small k: the small-k kernel; else on compute capability 9.0 the wgmma pipeline; elsewhere the SIMT
// fallback. fp32 inputs (TF32, 3xTF32): the wgmma pipeline alone, A from registers, B rewritten as K-major TF32
// rows where the instructions cannot read it. On wgmma (route_for): the product or its transpose, the tile width
// and the split of k that the model finishes first; operands the copy engine cannot read copied by the
// pipeline's producer threads where aligned to 4 bytes and cheaper, else by a pass first.
#include "gemm/cuda_wgmma/wgmma_gemm.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdlib>
#include <initializer_list>
#include <optional>
#include <string_view>

#include "gemm/cuda_wgmma/launch.hpp"
#include "portkern/error.hpp"
#include "portkern/runtime/cuda_check.hpp"
#include "runtime/scratch.hpp"

namespace portkern::gemm_impl::cuda_wgmma {

namespace {

constexpr const char* who = "portkern::gemm (cuda_wgmma)";

bool fp32_inputs(Input input) { return input == Input::tf32 || input == Input::tf32x3; }
std::int64_t bytes_of(Input input) { return fp32_inputs(input) ? 4 : 2; }
std::int64_t per_16_bytes(Input input) { return 16 / bytes_of(input); }   // the copy engine's unit, in values
std::int64_t k_tile_of(Input input) { return 128 / bytes_of(input); }   // one 128-byte swizzle row
int passes_of(Input input) { return input == Input::tf32x3 ? 3 : 1; }
// 3xTF32: where the small parts start along a rewritten row (a whole number of k-tiles after the big ones).
std::int64_t segment_of(Input input, std::int64_t k) {
  return input == Input::tf32x3 ? (k + k_tile_of(input) - 1) / k_tile_of(input) * k_tile_of(input) : 0;
}

// PORTKERN_WGMMA_KERNEL=64|128|256 forces the wgmma pipeline at a tile width (3xTF32: 256 gives 128, its widest),
// =small_k, =gemv or =simt those kernels where they apply to 16-bit inputs (measurement and tests only).
std::string_view forced() {
  const char* f = std::getenv("PORTKERN_WGMMA_KERNEL");
  return f ? f : "";
}
// PORTKERN_WGMMA_SPLITS=S makes the wgmma pipeline split k into S parts (fewer where k has fewer k-tiles), instead
// of the model's choice (measurement and tests only); 0 where unset.
int forced_splits() {
  const char* f = std::getenv("PORTKERN_WGMMA_SPLITS");
  return f ? std::max(1, std::atoi(f)) : 0;
}
// PORTKERN_WGMMA_EPILOGUE=pass leaves a convolution's epilogue to the caller's pass after the product even where
// the kernel could apply it as it writes C (measurement only).
bool epilogue_fusion_allowed() {
  const char* f = std::getenv("PORTKERN_WGMMA_EPILOGUE");
  return !f || std::string_view(f) != "pass";
}
// PORTKERN_WGMMA_A=shared makes fp32 inputs read A through shared-memory descriptors, rewritten as K-major TF32
// rows where needed, instead of from registers (measurement and tests only).
bool a_registers_allowed() {
  const char* f = std::getenv("PORTKERN_WGMMA_A");
  return !f || std::string_view(f) != "shared";
}
// PORTKERN_WGMMA_A=registers makes TF32 windows copied by the copy engine go through registers as 3xTF32's do,
// instead of being read in place, rounded on the copy engine's way (measurement only).
bool windows_in_registers() {
  const char* f = std::getenv("PORTKERN_WGMMA_A");
  return f && std::string_view(f) == "registers";
}
// PORTKERN_WGMMA_COPY=repack|threads makes operands the copy engine cannot read always be copied (16-bit) or
// rewritten (fp32) by a pass before the product, or copied by the producer's threads wherever their alignment
// allows, instead of whichever the model finishes first (measurement and tests only).
std::string_view forced_copy() {
  const char* f = std::getenv("PORTKERN_WGMMA_COPY");
  return f ? f : "";
}
// PORTKERN_WGMMA_SWAP=0|1 makes the wgmma pipeline never or always multiply the transposed product (C^T =
// op(B)^T op(A)^T) instead of choosing the cheaper (measurement and tests only).
std::string_view forced_swap() {
  const char* f = std::getenv("PORTKERN_WGMMA_SWAP");
  return f ? f : "";
}

// The widest of 16, 8 and 4 bytes that an operand's base, leading dimension and batch stride are all multiples
// of; 0 where none is (16-bit values at odd addresses or odd strides). The copy engine needs 16; the producer
// threads' asynchronous copies (cp.async) take pieces of any of the three.
int aligned_bytes(Input input, const void* x, std::int64_t ld, std::int64_t stride, std::int64_t batch) {
  for (int bytes : {16, 8, 4})
    if (reinterpret_cast<std::uintptr_t>(x) % bytes == 0 && ld * bytes_of(input) % bytes == 0 &&
        (batch == 1 || stride * bytes_of(input) % bytes == 0))
      return bytes;
  return 0;
}

// What the copy engine needs of one operand: 16-byte alignment (aligned_bytes) and, for a batch, a stride above 0
// (a stride of 0 repeats one matrix, which a tensor map cannot).
bool copyable(Input input, const void* x, std::int64_t ld, std::int64_t stride, std::int64_t batch) {
  return aligned_bytes(input, x, ld, stride, batch) == 16 && (batch == 1 || stride > 0);
}

// PORTKERN_WGMMA_C=threads makes the wgmma pipeline's consumers write C element by element even where the copy
// engine could (measurement and tests only).
bool c_engine_allowed() {
  const char* f = std::getenv("PORTKERN_WGMMA_C");
  return !f || std::string_view(f) != "threads";
}

// What the copy engine needs of C (fp32): what it needs of an fp32 operand (copyable), and at least one 16-byte
// unit along C's contiguous dimension (m, or n where C is transposed). It writes whole units, past the tensor
// map's extent too (H100: with m = 257 it wrote C's padding up to row 260), so that extent stops at a multiple of
// 4 and the kernel's threads write the last 1-3 (wgmma_kernel.cuh).
bool c_copyable(const Problem& p) {
  return copyable(Input::tf32, p.c, p.ldc, p.stride_c, p.batch) && (p.c_transposed ? p.n : p.m) >= 4;
}

// How the epilogue writes C (launch.hpp's CStore): through the copy engine where it can, stored where beta is 0,
// added where beta is 1; else by threads. Split k changes nothing here: the first part to finish writes as an
// unsplit product would, the others add.
CStore c_store_of(const Problem& p) {
  if (!c_copyable(p) || !c_engine_allowed()) return CStore::threads;
  if (p.beta == 1.f) return CStore::engine_add;
  return p.beta == 0.f ? CStore::engine : CStore::threads;
}

bool fits(Input input, const Problem& p) {   // the copy engine's coordinates are 32-bit
  constexpr std::int64_t limit = std::int64_t(1) << 31;
  return p.m < limit && p.n < limit && p.k < limit && 2 * segment_of(input, p.k) < limit && p.batch < limit;
}

// The tiles of C a plan of `columns` columns covers, over all problems.
std::int64_t tiles_of(const Problem& p, int columns) {
  return (p.m + 127) / 128 * ((p.n + columns - 1) / columns) * p.batch;
}

// The plan that finishes first under a model in microseconds, calibrated on the H100 (docs/precision.md): the
// persistent grid runs ceil(items / multiprocessors) rounds of items (tiles x parts of k), an item costing its
// k-tiles at its width's time per k-tile plus writing its tile of C; once, filling the pipeline; and with k
// split, the later parts' wait for the first part's C and the parts' writes into C, per MB written: 0.4 us
// through the copy engine, 1.3 us by threads (atomics). The split's costs were fitted on the H100 to 198 forced
// splits of 33 BF16 nets products (data/results/h100-2026-11-27-ordered-split): 5.7 us + 0.42 us/MB, 5.1 us +
// 1.33 us/MB. Wide tiles read less shared memory per product; narrow ones and split k fill the GPU on smaller
// products.
struct Width {
  int columns;
  double k_tile_us;   // one 64-deep k-tile of a 128 x columns tile on one multiprocessor
};
constexpr Width widths[] = {{256, 0.84}, {128, 0.49}, {64, 0.37}};
constexpr double fill_us = 1.5, epilogue_us_per_128_columns = 0.25, split_us = 5.5;
constexpr double engine_us_per_byte = 0.4e-6, threads_us_per_byte = 1.3e-6;   // split k's writes of C
constexpr int max_splits = 16;
constexpr std::int64_t max_counters = std::int64_t(1) << 20;   // 4 MiB of counters at most, split k's order
constexpr int max_tf32x3_columns = 128;   // its two accumulators of 256 columns would not fit the registers

// A convolution's epilogue left to the caller's pass after the product (conv2d's bias_relu), where the kernel
// does not apply it as it writes C: about a launch, plus C read and written (and the residual read) at the copy
// rate. On the H100 the pass cost a median 2.9 us after the 16 ResNet-50 layers implicit_wgmma ran at tf32 (C of
// 0.05-1.6 MB; data/results/h100-2026-11-28-epilogue/): as much as splitting k gains on many layers.
constexpr double epilogue_pass_us = 2.5, epilogue_pass_us_per_byte = 1 / 2.5e6;
double epilogue_pass_cost_us(const Problem& p) {
  const Epilogue& e = p.epilogue;
  if (!p.windows || !e.any() || p.beta != 0.f || !epilogue_fusion_allowed()) return 0;
  const double values = double(p.m) * double(p.n) * double(p.batch);
  return epilogue_pass_us + epilogue_pass_us_per_byte * 4.0 * values * (e.residual ? 3 : 2);
}

// A fused plan's products are priced 1.2x. Until the kernels that apply the epilogue gathered its operands a slab
// at a time (gather_addends), they ran 10-25% slower than the plain ones even with an empty epilogue; since, the
// model still underestimates an unsplit product against a split one: priced alike (1.0), VGG-16 conv3_2 at tf32
// took the fused unsplit plan at 36 us against 31.5 for split k and the pass (data/results/h100-2026-11-28-gather/).
constexpr double finish_slowdown = 1.2;

// pass_us: what a plan whose kernel cannot apply the problem's epilogue pays for the pass after it (split k, or
// the kernel of 256 columns with A in registers); 0 where there is none. Where it is not 0, a plan whose kernel
// applies the epilogue is marked so (Plan::fused_epilogue).
Plan plan_for(Input input, const Problem& p, int multiprocessors, double pass_us = 0, bool a_registers = false) {
  const std::int64_t k_tiles = (p.k + k_tile_of(input) - 1) / k_tile_of(input);
  Plan best;
  double best_us = -1;
  // A forced width (3xTF32: at most max_tf32x3_columns), or 0.
  const std::string_view f = forced();
  int wanted = f == "64" ? 64 : f == "128" ? 128 : f == "256" ? 256 : 0;
  if (input == Input::tf32x3 && wanted > max_tf32x3_columns) wanted = max_tf32x3_columns;
  const double c_us_per_byte = c_store_of(p) == CStore::threads ? threads_us_per_byte : engine_us_per_byte;
  const int only_splits = forced_splits() ? int(std::min<std::int64_t>(forced_splits(), k_tiles)) : 0;   // or 0
  for (const Width& w : widths) {
    if ((wanted && w.columns != wanted) || (input == Input::tf32x3 && w.columns > max_tf32x3_columns)) continue;
    const double k_tile_us = w.k_tile_us * passes_of(input);
    const std::int64_t tiles = tiles_of(p, w.columns);
    const int most_splits = counters_for(tiles) > max_counters ? 1 : max_splits;
    for (int splits = only_splits ? only_splits : 1; splits <= (only_splits ? only_splits : most_splits) &&
                                                     splits <= k_tiles; ++splits) {
      const std::int64_t per_split = (k_tiles + splits - 1) / splits;
      if (splits > 1 && !only_splits && (k_tiles + per_split - 1) / per_split != splits) continue;   // = fewer parts
      const double rounds = double((tiles * splits + multiprocessors - 1) / multiprocessors);
      double us = fill_us + rounds * (double(per_split) * k_tile_us + epilogue_us_per_128_columns * w.columns / 128);
      if (splits > 1) us += split_us + c_us_per_byte * 4.0 * double(splits * p.m * p.n * p.batch);
      const bool fused = pass_us > 0 && splits == 1 && epilogue_fusable(w.columns, a_registers, true);
      if (fused) us = fill_us + (us - fill_us) * finish_slowdown;   // the kernel applies the epilogue
      else us += pass_us;
      if (best_us < 0 || us < best_us) {
        best = {w.columns, splits, us};
        best.fused_epilogue = fused;
        best_us = us;
      }
    }
  }
  return best;
}

enum class Kernel { wgmma, small_k, gemv, simt };

struct Route {
  Kernel kernel = Kernel::simt;
  Plan plan;
  bool repack_a = false, repack_b = false;
  bool swap = false;   // the kernels compute C^T = op(B)^T op(A)^T (transposed())
};


// The same product with the operands' roles exchanged: C^T (n x m) = op(B)^T op(A)^T, written into C's storage
// transposed. A product of few rows thereby takes its large B as the A read into registers, never rewritten.
Problem transposed(const Problem& p) {
  Problem t = p;
  t.trans_a = !p.trans_b, t.trans_b = !p.trans_a;
  t.m = p.n, t.n = p.m;
  t.a = p.b, t.lda = p.ldb, t.stride_a = p.stride_b;
  t.b = p.a, t.ldb = p.lda, t.stride_b = p.stride_a;
  t.c_transposed = !p.c_transposed;
  return t;
}

// Copying an operand first (16-bit: as it is, aligned; fp32: as TF32 rows, 3xTF32 both parts): reading it and
// writing the copy at about the H100's copy rate, plus a launch.
constexpr double rewrite_us = 3, us_per_byte = 1 / 2.5e6;   // 2.5 TB/s
double rewrite_cost_us(Input input, const Problem& p, std::int64_t rows) {
  const std::int64_t segment_k = segment_of(input, p.k);
  const double bytes = double(bytes_of(input)), read = double(rows) * double(p.k) * bytes;
  const double written = double(rows) * double(segment_k > 0 ? 2 * segment_k : p.k) * bytes;
  return rewrite_us + us_per_byte * double(p.batch) * (read + written);
}

// Copying an operand by the producer's threads instead: no pass, but each k-tile an item waits for takes about
// 0.9 microseconds longer (the asynchronous copies of 4- and 8-byte pieces land slower than TMA's). Calibrated on
// the H100 against a copy pass on the 20 BF16 nets products the model had sent to threads
// (data/results/h100-2026-11-27-no-spills): 0.9 picks the faster of the two on 17 of them, the other three within
// 0.6 us; the former 0.6 picked the slower on 10, 21 us lost in all.
constexpr double thread_copy_us_per_k_tile = 0.9;
double thread_copy_cost_us(Input input, const Plan& plan, const Problem& p, int multiprocessors) {
  const std::int64_t k_tiles = (p.k + k_tile_of(input) - 1) / k_tile_of(input);
  const std::int64_t per_item = (k_tiles + plan.splits - 1) / plan.splits;
  const std::int64_t items = tiles_of(p, plan.columns) * plan.splits;
  return thread_copy_us_per_k_tile * double(per_item) * double((items + multiprocessors - 1) / multiprocessors);
}

// The unit of the threads' copies of an operand the copy engine cannot read (aligned_bytes), where they are
// allowed and finish before a pass that copies it first would (`rows`: m for A, n for B); 0 where not.
int chunk_if_cheaper(const Device& device, Input input, const Plan& plan, const Problem& p, const void* x,
                     std::int64_t ld, std::int64_t stride, std::int64_t rows) {
  const int chunk = aligned_bytes(input, x, ld, stride, p.batch);
  const std::string_view f = forced_copy();
  if (!chunk || f == "repack") return 0;
  if (f == "threads") return chunk;
  const int multiprocessors = device.properties().compute_units;
  return thread_copy_cost_us(input, plan, p, multiprocessors) < rewrite_cost_us(input, p, rows) ? chunk : 0;
}

// fp32 inputs, p as it is: wgmma, rewriting what the TF32 instructions cannot read: B unless K-major and
// copyable (3xTF32: always, as its two parts; TF32 rounds it on the copy engine's way); A goes into registers as it
// is stored (TF32: where it is not K-major or the copy engine cannot read it, else the copy engine rounds it in
// place), copied by the producer's threads where the copy engine cannot read it and that is cheaper than
// rewriting it (A through shared memory is always rewritten).
Route fp32_route(const Device& device, Input input, const Problem& p) {
  const bool x3 = input == Input::tf32x3, a_copyable = copyable(input, p.a, p.lda, p.stride_a, p.batch);
  Route r{Kernel::wgmma, plan_for(input, p, device.properties().compute_units), false,
          !p.b_rows && (x3 || p.trans_b || !copyable(input, p.b, p.ldb, p.stride_b, p.batch))};
  const int a_chunk = a_copyable ? 0 : chunk_if_cheaper(device, input, r.plan, p, p.a, p.lda, p.stride_a, p.m);
  r.plan.a_registers = (a_copyable || a_chunk) && (x3 || !p.trans_a || !a_copyable) && a_registers_allowed();
  r.plan.a_chunk = r.plan.a_registers ? a_chunk : 0;
  r.repack_a = !r.plan.a_registers && (x3 || !p.trans_a || !a_copyable);
  return r;
}

// The unit of the producer threads' copies of windows: the image as a matrix of pixels, `channels` fp32 values
// apart (aligned_bytes: 16, 8 or 4, or 0 where the image is not aligned to 4 bytes).
int windows_chunk(const Windows& w) { return aligned_bytes(Input::tf32, w.image, w.channels, 0, 1); }

// Whether the copy engine's im2col mode copies A's k-tiles (launch.hpp): whole k-tiles at one tap (channels a
// multiple of 32), a 16-byte aligned image, and the mode's limits on a 4-D tensor (bounding box corners within
// [-128, 127], tap offsets within [0, 255], strides of at most 8).
bool windows_by_engine(const Windows& w) {
  if (w.channels % 32 != 0 || windows_chunk(w) != 16) return false;
  if (w.stride_h > 8 || w.stride_w > 8) return false;
  const std::int64_t window_h = w.depth / (std::int64_t(w.window_w) * w.channels);
  const ImageCorners corners = image_corners(w);
  auto corner = [](std::int64_t v) { return v >= -128 && v <= 127; };
  return corner(corners.lower_w) && corner(corners.lower_h) && corner(corners.upper_w) && corner(corners.upper_h) &&
         (window_h - 1) * w.dilation_h <= 255 && (w.window_w - 1) * w.dilation_w <= 255;
}

// A as windows of an image (fp32 inputs): copied by the copy engine in im2col mode where it can (windows_by_engine),
// else by the producer's threads; multiplied from registers, but for TF32 by the copy engine, which rounds it on
// the way and the tensor cores read in place. B (the filter, out_c contiguous) rewritten as K-major TF32 rows.
// Never transposed: C's rows are the pixels.
Route windows_route(const Device& device, Input input, const Problem& p) {
  const int a_chunk = windows_by_engine(*p.windows) && forced_copy() != "threads" ? 0 : windows_chunk(*p.windows);
  const bool a_registers = input == Input::tf32x3 || a_chunk || windows_in_registers();
  Route r{Kernel::wgmma,
          plan_for(input, p, device.properties().compute_units, epilogue_pass_cost_us(p), a_registers), false,
          !p.b_rows};
  r.plan.a_chunk = a_chunk;
  r.plan.a_registers = a_registers;
  r.plan.c_store = c_store_of(p);
  return r;
}

// 16-bit inputs on wgmma, p as it is: any layout; operands the copy engine cannot read copied by the producer's
// threads where aligned to 4 bytes and that is cheaper, else by a pass first.
Route half_route(const Device& device, Input input, const Problem& p) {
  Route r{Kernel::wgmma, plan_for(input, p, device.properties().compute_units)};
  if (!copyable(input, p.a, p.lda, p.stride_a, p.batch)) {
    r.plan.a_chunk = chunk_if_cheaper(device, input, r.plan, p, p.a, p.lda, p.stride_a, p.m);
    r.repack_a = !r.plan.a_chunk;
  }
  if (!copyable(input, p.b, p.ldb, p.stride_b, p.batch)) {
    r.plan.b_chunk = chunk_if_cheaper(device, input, r.plan, p, p.b, p.ldb, p.stride_b, p.n);
    r.repack_b = !r.plan.b_chunk;
  }
  return r;
}

// The model's time for route r of p (p already transposed when r.swap): the plan, the copies first and the
// copies by threads.
double cost_us(const Device& device, Input input, const Route& r, const Problem& p) {
  const int by_threads = (r.plan.a_chunk ? 1 : 0) + (r.plan.b_chunk ? 1 : 0);
  return r.plan.us + (r.repack_a ? rewrite_cost_us(input, p, p.m) : 0) +
         (r.repack_b ? rewrite_cost_us(input, p, p.n) : 0) +
         by_threads * thread_copy_cost_us(input, r.plan, p, device.properties().compute_units);
}

// 16-bit inputs: one row (gemv_fits): the matrix-vector product; small k (small_k_wins): the small-k kernel,
// bound by writing C; else wgmma on compute capability 9.0 (sm_90), the SIMT fallback elsewhere. fp32 inputs:
// wgmma (the caller checked `applies`). On wgmma, the product or its transpose, whichever the model finishes
// first.
Route route_for(const Device& device, Input input, const Problem& p) {
  if (p.windows) {
    if (!applies(device, input, p)) fail(who, "windows need fp32 inputs, compute capability 9.0 and windows_fit");
    return windows_route(device, input, p);
  }
  if (fp32_inputs(input)) {
    if (!applies(device, input, p)) fail(who, "TF32 inputs need compute capability 9.0 and 32-bit coordinates");
  } else {
    const std::string_view f = forced();
    if (f == "simt") return {};
    if ((f.empty() || f == "gemv") && gemv_fits(p)) return {Kernel::gemv, {}};
    // One column, A's rows contiguous: the matrix-vector product of the transposed product, C^T = op(B)^T op(A)^T
    // (H100, BF16 4096 x 1 x 25088: 0.92 of cuBLAS on wgmma split in 4, bound by reading A; the matrix-vector
    // product reads it at 0.97 of cuBLAS's rate as 1 x 4096 x 25088).
    if ((f.empty() || f == "gemv") && p.n == 1 && forced_swap() != "0" && gemv_fits(transposed(p))) {
      Route r{Kernel::gemv, {}};
      r.swap = true;
      return r;
    }
    if ((f.empty() && small_k_wins(p)) || (f == "small_k" && small_k_fits(p))) return {Kernel::small_k, {}};
    if (!has_wgmma(device) || !fits(input, p)) return {};
  }
  const auto plain_route = fp32_inputs(input) ? fp32_route : half_route;
  auto route = [&](const Device& device, Input input, const Problem& p) {   // C is the same storage either way
    Route r = plain_route(device, input, p);
    r.plan.c_store = c_store_of(p);
    return r;
  };
  const std::string_view f = forced_swap();
  const Route as_is = route(device, input, p);
  // 16-bit inputs rewrite nothing: their transposed product pays where the product's rows fill less than half a
  // tile (H100, BF16 nets: 16 x 512 x 512 in 36 problems 1.22x, 16 x 4096 x 4096 1.24x). The model would also
  // send tall products of 128 columns there, which ran at half the speed (12544 x 128 x 64 in 36 problems: 0.49x).
  if (f == "0" || p.b_rows || (f.empty() && !fp32_inputs(input) && p.m >= 64)) return as_is;
  const Problem t = transposed(p);
  Route swapped = route(device, input, t);
  swapped.swap = true;
  return f == "1" || cost_us(device, input, swapped, t) < cost_us(device, input, as_is, p) ? swapped : as_is;
}

// x rounded up to a whole number of 16-byte units of `input` values.
std::int64_t round_up(Input input, std::int64_t x) {
  return (x + per_16_bytes(input) - 1) / per_16_bytes(input) * per_16_bytes(input);
}

// The scratch memory holding rewritten operands, A's and B's.
struct Copies {
  std::optional<detail::ScratchPool::Lease> a, b;
};

// 16-bit inputs: an operand the copy engine cannot read (route_for) copied with an aligned leading dimension.
void repack(Queue& queue, Input input, const Route& r, Problem& p, Copies& copies, cudaStream_t stream) {
  auto copy = [&](std::optional<detail::ScratchPool::Lease>& to, const void*& x, std::int64_t& ld,
                  std::int64_t& stride, std::int64_t inner, std::int64_t outer, const char* purpose) {
    const std::int64_t ld_copy = round_up(input, inner);
    to.emplace(queue.scratch_pool().lease(std::size_t(ld_copy * outer * p.batch * bytes_of(input)), purpose));
    launch_repack(x, inner, outer, ld, stride, p.batch, to->as<void>(), ld_copy, stream);
    x = to->as<void>(), ld = ld_copy, stride = ld_copy * outer;
  };
  if (r.repack_a) copy(copies.a, p.a, p.lda, p.stride_a, p.trans_a ? p.k : p.m, p.trans_a ? p.m : p.k, "wgmma GEMM: A");
  if (r.repack_b) copy(copies.b, p.b, p.ldb, p.stride_b, p.trans_b ? p.n : p.k, p.trans_b ? p.k : p.n, "wgmma GEMM: B");
}

// fp32 inputs: the operands route_for names rewritten as K-major TF32 rows (tf32_operand.cu); A becomes
// op(A) = A^T of an m-row K-major matrix, B op(B) = B.
void rewrite_as_tf32(Queue& queue, const Route& r, std::int64_t segment_k, Problem& p, Copies& copies,
                     cudaStream_t stream) {
  const std::int64_t ld = segment_k > 0 ? 2 * segment_k : round_up(Input::tf32, p.k);
  auto rewrite = [&](std::optional<detail::ScratchPool::Lease>& to, const void*& x, std::int64_t& x_ld,
                     std::int64_t& stride, bool k_major, std::int64_t rows, const char* purpose) {
    to.emplace(queue.scratch_pool().lease(std::size_t(ld * rows * p.batch) * sizeof(float), purpose));
    launch_tf32_operand(static_cast<const float*>(x), k_major, p.k, rows, x_ld, stride, p.batch, to->as<float>(), ld,
                        segment_k, stream);
    x = to->as<void>(), x_ld = ld, stride = ld * rows;
  };
  if (r.repack_a) rewrite(copies.a, p.a, p.lda, p.stride_a, p.trans_a, p.m, "wgmma GEMM: A as TF32"), p.trans_a = true;
  if (r.repack_b) rewrite(copies.b, p.b, p.ldb, p.stride_b, !p.trans_b, p.n, "wgmma GEMM: B as TF32"), p.trans_b = false;
}

}  // namespace

double estimated_us(const Device& device, Input input, const Problem& p) {
  const Route r = route_for(device, input, p);
  return cost_us(device, input, r, r.swap ? transposed(p) : p);
}

bool windows_fit(const Windows& w, std::int64_t out_c) {
  constexpr std::int64_t limit = std::int64_t(1) << 31;
  return windows_chunk(w) > 0 && w.pixels < limit && w.depth < limit && out_c < limit &&
         std::int64_t(w.out_h) * w.out_w < limit && std::int64_t(w.height) * w.stride_h < limit &&
         std::int64_t(w.width) * w.stride_w < limit;
}

std::int64_t b_rows_ld(std::int64_t k) { return 2 * segment_of(Input::tf32x3, k); }

void prepare_b(Queue& queue, const float* b, bool trans_b, std::int64_t k, std::int64_t n, std::int64_t ldb,
               float* rows) {
  launch_tf32_operand(b, !trans_b, k, n, ldb, 0, 1, rows, b_rows_ld(k), segment_of(Input::tf32x3, k),
                      static_cast<cudaStream_t>(queue.native_stream()));
}

Problem convolution(const Windows& windows, const float* filter, std::int64_t out_c, float* output,
                    const float* filter_rows) {
  Problem p;
  p.trans_a = true, p.trans_b = true;   // op(B)(k, j) = filter[k * out_c + j]
  p.m = windows.pixels, p.n = out_c, p.k = windows.depth;
  p.a = windows.image, p.lda = windows.depth;
  p.b = filter, p.ldb = out_c;
  if (filter_rows) p.b = filter_rows, p.ldb = b_rows_ld(p.k), p.trans_b = false, p.b_rows = true;
  p.c = output, p.ldc = out_c, p.c_transposed = true;
  p.windows = &windows;
  return p;
}

bool fuses_epilogue(const Device& device, Input input, const Problem& p) {
  return p.windows && route_for(device, input, p).plan.fused_epilogue;
}

bool has_wgmma(const Device& device) { return device.is_cuda() && device.properties().arch == "sm_90"; }

bool applies(const Device& device, Input input, const Problem& p) {
  if (p.windows && (!fp32_inputs(input) || p.batch != 1 || !windows_fit(*p.windows, p.n))) return false;
  return !fp32_inputs(input) || (has_wgmma(device) && fits(input, p));
}

std::string kernel_for(const Device& device, Input input, const Problem& p) {
  const Route r = route_for(device, input, p);
  if (r.kernel == Kernel::simt) return "simt";
  if (r.kernel == Kernel::small_k) return "small_k";
  if (r.kernel == Kernel::gemv) return r.swap ? "gemv_swapped" : "gemv";
  std::string name = input == Input::tf32 ? "wgmma_tf32_" : input == Input::tf32x3 ? "wgmma_tf32x3_" : "wgmma_";
  name += "128x" + std::to_string(r.plan.columns);
  if (r.plan.splits > 1) name += "_split" + std::to_string(r.plan.splits);
  if (r.plan.a_registers) name += "_a_in_registers";
  if (r.plan.a_chunk && !p.windows) name += "_a_by_threads";
  if (r.plan.b_chunk) name += "_b_by_threads";
  if (p.windows) name += r.plan.a_chunk ? "_windows_by_threads" : "_windows";
  if (r.plan.fused_epilogue) name += "_epilogue";
  if (r.swap) name += "_swapped";
  if (r.plan.c_store == CStore::threads) name += "_c_by_threads";
  if ((r.repack_a || r.repack_b) && input != Input::tf32x3) name += "_repacked";   // 3xTF32 always rewrites B
  return name;
}

bool run(Queue& queue, Input input, const Problem& original) {
  const auto stream = static_cast<cudaStream_t>(queue.native_stream());
  const Route r = route_for(queue.device(), input, original);
  if (r.kernel != Kernel::wgmma) {   // kernels without an epilogue
    if (r.kernel == Kernel::simt) launch_simt(input, original, stream);
    else if (r.kernel == Kernel::small_k) launch_small_k(input, original, stream);
    else launch_gemv(input, r.swap ? transposed(original) : original, stream);
    return false;
  }
  Problem p = r.swap ? transposed(original) : original;
  const std::int64_t segment_k = segment_of(input, p.k);
  // Operands the pipeline cannot read as they are, rewritten into scratch memory (kept until the kernels that
  // read them have been queued: the pool's next lease is by a call on this queue's stream, which runs after them).
  Copies copies;
  if (fp32_inputs(input)) rewrite_as_tf32(queue, r, segment_k, p, copies, stream);
  else repack(queue, input, r, p, copies, stream);
  // Split k with beta != 1: the counters that order each tile's parts, kept zero between calls by the queue.
  std::uint32_t* counters = nullptr;
  if (ordered_split(r.plan.splits, p.beta)) {
    const auto bytes = std::size_t(counters_for(tiles_of(p, r.plan.columns))) * sizeof(std::uint32_t);
    counters = static_cast<std::uint32_t*>(queue.scratch_pool().kept(
        bytes, "wgmma GEMM: split k's counters", [stream](void* data, std::size_t size) {
          PORTKERN_CUDA_CHECK(who, cudaMemsetAsync(data, 0, size, stream));
          PORTKERN_CUDA_CHECK(who, cudaStreamSynchronize(stream));
        }));
  }
  launch_wgmma(input, r.plan, p, segment_k, queue.device().properties().compute_units, counters, stream);
  return r.plan.fused_epilogue;
}

}  // namespace portkern::gemm_impl::cuda_wgmma
