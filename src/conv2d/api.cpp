// portkern::conv2d: checks, the rule's choice (or the caller's), and each algorithm's sequence of launches:
// one kernel (direct, tiled), patches + GEMM (im2col), one GEMM (gemm_1x1), or transforms around batched
// GEMMs (winograd).
#include <algorithm>
#include <cstdlib>
#include <cstdint>
#include <string>

#include "conv2d/args.hpp"
#include "conv2d/backends.hpp"
#include "conv2d/deployment.hpp"
#include "conv2d/direct.hpp"
#include "conv2d/epilogue.hpp"
#include "conv2d/im2col.hpp"
#include "conv2d/rule.hpp"
#include "conv2d/tiled_config.hpp"
#include "conv2d/winograd.hpp"
#include "portkern/blas.hpp"
#include "portkern/checked.hpp"
#include "portkern/dnn.hpp"
#include "portkern/error.hpp"
#include "runtime/scratch.hpp"

namespace portkern {

namespace {

using namespace conv2d_impl;
constexpr const char* fn = "portkern::conv2d";

ConvArgs make_args(const Conv2dDesc& d, const float* input, const float* filter, float* output) {
  return {d.batch,      d.in_h,       d.in_w,     d.in_c,   d.out_c,   d.window_h, d.window_w, d.stride_h,
          d.stride_w,   d.pad_top,    d.pad_left, d.dilation_h, d.dilation_w, d.out_h, d.out_w, input,
          filter,       output,       d.bias,     d.relu};
}

bool aligned(const void* p, std::size_t bytes) { return reinterpret_cast<std::uintptr_t>(p) % bytes == 0; }

// Bytes of scratch a chunk may use on the CPU: a chunk's patches (or transformed tiles) stay in the caches.
// PORTKERN_CONV2D_CHUNK_MB overrides it (for tuning experiments).
std::int64_t cpu_chunk_bytes_of(const char* env, std::int64_t fallback) {
  const char* value = std::getenv(env);
  return value ? std::int64_t(std::atof(value) * (1 << 20)) : fallback;
}
const std::int64_t cpu_chunk_bytes = cpu_chunk_bytes_of("PORTKERN_CONV2D_CHUNK_MB", 8 << 20);
const std::int64_t cpu_winograd_bytes = cpu_chunk_bytes_of("PORTKERN_CONV2D_WINOGRAD_MB", 8 << 20);
// Most scratch a call takes on a GPU before it works in chunks.
constexpr std::int64_t gpu_chunk_bytes = std::int64_t(512) << 20;

void bias_relu(const Queue& q, const ConvArgs& a, std::int64_t row_begin, std::int64_t row_end) {
  if (!a.bias && !a.relu) return;
  launch(q, BiasRelu{row_end - row_begin, a.out_c, a.output + row_begin * a.out_c, a.bias, a.relu});
}

void run_gemm_1x1(Queue& q, const ConvArgs& a) {
  // Column-major view: output (out_c x pixels) = filter (out_c x in_c, ld out_c) * input (in_c x pixels).
  const std::int64_t pixels = a.batch * a.out_h * a.out_w;
  gemm<float>(q, Op::none, Op::none, a.out_c, pixels, a.in_c, 1.f, a.filter, a.out_c, a.input, a.in_c, 0.f, a.output,
              a.out_c);
  bias_relu(q, a, 0, pixels);
}

// The call's own scratch block of `floats` floats (see runtime/scratch.hpp), held until it returns.
portkern::detail::ScratchPool::Lease lease_floats(Queue& q, std::int64_t floats, const char* purpose) {
  return q.scratch_pool().lease(checked_bytes(floats, sizeof(float), fn, purpose), purpose);
}

void run_im2col(Queue& q, const ConvArgs& a, bool chunked) {
  const std::int64_t width = a.window_h * a.window_w * a.in_c, rows = a.batch * a.out_h;   // checked by conv2d_complete
  const std::int64_t row_floats = checked_mul(a.out_w, width, fn, "out_w * window_h * window_w * in_c (an im2col row)");
  const std::int64_t budget = (chunked && q.device().is_cpu() ? cpu_chunk_bytes : gpu_chunk_bytes) / 4;
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

void transform_filter(const Queue& q, int tile, std::int64_t in_c, std::int64_t out_c, const float* filter, float* u) {
  if (tile == 2) return launch(q, WinogradFilterTransform<2>{in_c, out_c, filter, u});
  launch(q, WinogradFilterTransform<4>{in_c, out_c, filter, u});
}

// Winograd with the transformed filter `u`, or, when `u` is nullptr, with a.filter transformed into the call's
// scratch first. The scratch block holds that filter, then V and the products of one chunk of tiles.
template <int M>
void run_winograd(Queue& q, const ConvArgs& a, const float* u) {
  constexpr int alpha = M + 2, positions = alpha * alpha;
  const std::int64_t tiles_h = (a.out_h + M - 1) / M, tiles_w = (a.out_w + M - 1) / M;
  const std::int64_t tiles = checked_product({a.batch, tiles_h, tiles_w}, fn, "Winograd tiles");
  const std::int64_t per_tile =
      checked_mul(positions, checked_add(a.in_c, a.out_c, fn, "in_c + out_c"), fn, "Winograd floats per tile");
  const std::int64_t budget = (q.device().is_cpu() ? cpu_winograd_bytes : gpu_chunk_bytes) / 4;
  const std::int64_t chunk = std::clamp<std::int64_t>(budget / per_tile, 1, tiles);
  // The filter's floats rounded up to 64 bytes, so that V starts as aligned as the block.
  const std::int64_t u_floats =
      u ? 0 : (checked_product({positions, a.in_c, a.out_c}, fn, "the transformed filter") + 15) / 16 * 16;
  const auto scratch = lease_floats(q, checked_add(u_floats, chunk * per_tile, fn, "Winograd scratch floats"),
                                    "conv2d scratch (Winograd filter and tiles)");
  if (!u) {
    transform_filter(q, M, a.in_c, a.out_c, a.filter, scratch.as<float>());
    u = scratch.as<float>();
  }
  float* v = scratch.as<float>() + u_floats;
  float* m = v + chunk * positions * a.in_c;
  for (std::int64_t t0 = 0; t0 < tiles; t0 += chunk) {
    const std::int64_t t1 = std::min(tiles, t0 + chunk), count = t1 - t0;
    const WinogradTiles range{tiles_h, tiles_w, t0, t1};
    launch(q, WinogradInput<M>{a, range, v});
    // For each position: products (out_c x tiles) = U (out_c x in_c) * V (in_c x tiles), column-major.
    gemm_strided_batched<float>(q, Op::none, Op::none, a.out_c, count, a.in_c, 1.f, u, a.out_c, a.in_c * a.out_c, v,
                                a.in_c, count * a.in_c, 0.f, m, a.out_c, count * a.out_c, positions);
    launch(q, WinogradOutput<M>{a, range, m});
  }
}

void check_pointers(const Queue& q, const Conv2dDesc& d, const float* input, const void* filter, float* output) {
  q.check_pointer(input, fn, "input");
  q.check_pointer(filter, fn, "filter");
  q.check_pointer(output, fn, "output");
  if (d.bias) q.check_pointer(d.bias, fn, "desc.bias");
}

Conv2dChoice resolve(const Device& device, const Conv2dDesc& d, const Conv2dChoice& force) {
  Conv2dChoice choice = force;
  if (choice.config.empty()) {
    if (choice.algorithm.empty()) {
      const Conv2dSelection s = conv2d_impl::select(device, d);
      return {s.algorithm, s.config};
    }
    choice.config = default_config(device, choice.algorithm);
  } else if (choice.algorithm.empty()) {
    choice.algorithm = choice.config.substr(0, choice.config.find('/'));
  }
  return choice;
}

bool instantiated(const std::string& config) {
  for (std::string_view c : tiled_deployed)
    if (config == c) return true;
  return config == "direct/default" || config == "gemm_1x1/default" || config == "im2col/whole" ||
         config == "im2col/chunked" || config == "winograd/f2" || config == "winograd/f4";
}

}  // namespace

bool conv2d_supports(const Device& device, const Conv2dDesc& desc, const Conv2dChoice& force, std::string* why) {
  const Conv2dDesc d = conv2d_complete(desc);
  const Conv2dChoice choice = resolve(device, d, force);
  if (!known_algorithm(choice.algorithm)) return applies(choice.algorithm, d, why);   // says it is unknown
  if (!choice.config.starts_with(choice.algorithm + "/")) {
    if (why) *why = "configuration '" + choice.config + "' is not one of algorithm '" + choice.algorithm + "'";
    return false;
  }
  if (!instantiated(choice.config)) {
    if (why) {
      *why = "configuration '" + choice.config + "' is not instantiated in this build (src/conv2d/deployment.hpp; one of";
      for (const auto& c : conv2d_space(device, true)) *why += " " + c.config;
      *why += ")";
    }
    return false;
  }
  return applies(choice.algorithm, d, why);
}

Conv2dSelection conv2d_select(const Device& device, const Conv2dDesc& desc) {
  return conv2d_impl::select(device, conv2d_complete(desc));
}

std::vector<Conv2dChoice> conv2d_space(const Device&, bool instantiated_only) {
  std::vector<Conv2dChoice> space = {{"direct", "direct/default"}};
  if (instantiated_only) {
    for (std::string_view c : tiled_deployed) space.push_back({"tiled", std::string(c)});
  } else {
    for (const auto& p : tiled_conv_space()) space.push_back({"tiled", name(p)});
  }
  space.insert(space.end(), {{"im2col", "im2col/whole"},
                             {"im2col", "im2col/chunked"},
                             {"gemm_1x1", "gemm_1x1/default"},
                             {"winograd", "winograd/f2"},
                             {"winograd", "winograd/f4"}});
  return space;
}

void conv2d(Queue& queue, const Conv2dDesc& desc, const float* input, const float* filter, float* output,
            const Conv2dChoice& force) {
  const Conv2dDesc d = conv2d_complete(desc);
  check_pointers(queue, d, input, filter, output);
  const Conv2dChoice choice = resolve(queue.device(), d, force);
  std::string why;
  if (!conv2d_supports(queue.device(), d, choice, &why))
    fail(fn, "cannot use '" + choice.config + "' for this descriptor: " + why);
  const ConvArgs a = make_args(d, input, filter, output);
  const std::string& algorithm = choice.algorithm;
  if (algorithm == "direct") return launch(queue, Conv2dDirect<64>{a});
  if (algorithm == "gemm_1x1") return run_gemm_1x1(queue, a);
  if (algorithm == "im2col") return run_im2col(queue, a, choice.config == "im2col/chunked");
  if (algorithm == "tiled") {
    const auto p = parse_tiled_conv(choice.config);
    const bool vector_c = d.in_c % p.vec_c == 0 && aligned(input, 4 * p.vec_c);
    const bool vector_k = d.out_c % p.vec_k == 0 && aligned(filter, 4 * p.vec_k) && aligned(output, 4 * p.vec_k);
    if (!run_tiled(queue, choice.config, a, vector_c, vector_k))
      fail(fn, "configuration '" + choice.config + "' is not instantiated for " + queue.device().name());
    return;
  }
  // winograd: the filter transform into the call's scratch first (conv2d_winograd skips it).
  if (choice.config == "winograd/f2") run_winograd<2>(queue, a, nullptr);
  else run_winograd<4>(queue, a, nullptr);
}

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
                     float* output) {
  const Conv2dDesc d = conv2d_complete(desc);
  require(filter.tile() == 2 || filter.tile() == 4, fn, "filter.tile()", filter.tile(),
          "2 or 4 (a filter made by winograd_transform_filter)");
  std::string why;
  if (!applies("winograd", d, &why)) fail(fn, "cannot use winograd for this descriptor: " + why);
  require(filter.in_c() == d.in_c, fn, "filter.in_c()", filter.in_c(), "desc.in_c = " + std::to_string(d.in_c));
  require(filter.out_c() == d.out_c, fn, "filter.out_c()", filter.out_c(), "desc.out_c = " + std::to_string(d.out_c));
  require(filter.device() == queue.device(), fn, "filter.device()", filter.device().name(),
          "the queue's device " + queue.device().name());
  check_pointers(queue, d, input, filter.data(), output);
  const ConvArgs a = make_args(d, input, nullptr, output);
  if (filter.tile() == 2) run_winograd<2>(queue, a, filter.data());
  else run_winograd<4>(queue, a, filter.data());
}

}  // namespace portkern
