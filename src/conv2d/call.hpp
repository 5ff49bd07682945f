// What the algorithms' call sequences share: the descriptor flattened into kernel arguments, the pointer
// checks, the call's scratch block, a GEMM with the bias/ReLU epilogue, and how much scratch a chunk of work
// may take.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <optional>
#include <vector>

#include "conv2d/args.hpp"
#include "conv2d/backends.hpp"
#include "conv2d/epilogue.hpp"
#include "gemm/fused.hpp"
#include "portkern/checked.hpp"
#include "portkern/dnn.hpp"
#include "runtime/scratch.hpp"

namespace portkern::conv2d_impl {

inline constexpr const char* conv2d_fn = "portkern::conv2d";

inline ConvArgs make_args(const Conv2dDesc& d, const float* input, const float* filter, float* output,
                          Precision precision = Precision::accurate) {
  return {d.batch,    d.in_h,     d.in_w,     d.in_c,    d.out_c,      d.window_h,   d.window_w, d.stride_h,
          d.stride_w, d.pad_top,  d.pad_left, d.dilation_h, d.dilation_w, d.out_h,   d.out_w,    d.groups,
          input,      filter,     output,     d.bias,    d.residual,   d.relu,       precision};
}

inline void check_pointers(const Queue& q, const Conv2dDesc& d, const float* input, const void* filter,
                           float* output) {
  q.check_pointer(input, conv2d_fn, "input");
  q.check_pointer(filter, conv2d_fn, "filter");
  q.check_pointer(output, conv2d_fn, "output");
  if (d.bias) q.check_pointer(d.bias, conv2d_fn, "desc.bias");
  if (d.residual) q.check_pointer(d.residual, conv2d_fn, "desc.residual");
}

// Whether [a, a + a_count) and [b, b + b_count) share memory (addresses compared as integers: they may be
// different allocations).
inline bool overlap(const float* a, std::int64_t a_count, const float* b, std::int64_t b_count) {
  const auto x = reinterpret_cast<std::uintptr_t>(a), y = reinterpret_cast<std::uintptr_t>(b);
  return x < y + std::uintptr_t(b_count) * sizeof(float) && y < x + std::uintptr_t(a_count) * sizeof(float);
}

// A residual that overlaps the output (oneDNN's sum post-op: the output's old values added, desc.residual ==
// output) is copied first into a block the call holds (the returned lease, to keep until the call is queued):
// several algorithms write the product before the epilogue reads the residual (a GEMM, then a pass; on the CPU
// im2col's GEMMs and the implicit family too).
[[nodiscard]] inline std::optional<portkern::detail::ScratchPool::Lease> separate_residual(Queue& q, ConvArgs& a) {
  const std::int64_t outputs = a.batch * a.out_h * a.out_w * a.out_c;   // conv2d_complete checked the products
  if (!a.residual || !overlap(a.output, outputs, a.residual, outputs)) return std::nullopt;
  auto copy = q.scratch_pool().lease(checked_bytes(outputs, sizeof(float), conv2d_fn, "the residual's copy"),
                                     "conv2d scratch (the residual's copy, as it overlaps the output)");
  q.copy(copy.as<float>(), a.residual, std::size_t(outputs));
  a.residual = copy.as<float>();
  return copy;
}

// Bias, residual and ReLU on output rows [row_begin, row_end) (after a GEMM wrote them).
inline void bias_relu(const Queue& q, const ConvArgs& a, std::int64_t row_begin, std::int64_t row_end) {
  if (!a.bias && !a.residual && !a.relu) return;
  const float* residual = a.residual ? a.residual + row_begin * a.out_c : nullptr;
  launch(q, BiasRelu{row_end - row_begin, a.out_c, a.output + row_begin * a.out_c, a.bias, residual, a.relu});
}

// Output pixels [pixel_begin, pixel_end) = the filter (out_c x width, ld out_c) times `columns` (width x pixels,
// ld width), then the epilogue: fused into the GEMM where its family applies it to each tile in cache
// (gemm/fused.hpp), else as a pass after it. A filter packed once (a.packed_filter) is multiplied by as such.
inline void gemm_then_epilogue(Queue& q, const ConvArgs& a, std::int64_t pixel_begin, std::int64_t pixel_end,
                               std::int64_t width, const float* columns) {
  const std::int64_t offset = pixel_begin * a.out_c;
  const gemm_impl::GemmEpilogue<float> epilogue{a.bias, a.residual ? a.residual + offset : nullptr, a.relu};
  // Column-major: output (out_c x pixels) = filter (out_c x width) * columns (width x pixels).
  const bool fused =
      a.packed_filter
          ? gemm_impl::gemm_packed_with_epilogue(q, Op::none, pixel_end - pixel_begin, 1.f, *a.packed_filter, columns,
                                                 width, 0.f, a.output + offset, a.out_c, epilogue, a.precision)
          : gemm_impl::gemm_with_epilogue(q, Op::none, Op::none, a.out_c, pixel_end - pixel_begin, width, 1.f, a.filter,
                                     a.out_c, columns, width, 0.f, a.output + offset, a.out_c, epilogue,
                                     {"", "", a.precision});
  if (!fused) bias_relu(q, a, pixel_begin, pixel_end);
}

// The call's own scratch block of `floats` floats (see runtime/scratch.hpp), held until it returns.
inline portkern::detail::ScratchPool::Lease lease_floats(Queue& q, std::int64_t floats, const char* purpose) {
  return q.scratch_pool().lease(checked_bytes(floats, sizeof(float), conv2d_fn, purpose), purpose);
}

// Bytes of scratch one chunk of a call may use: sized for the CPU's caches, `default_mib` unless the
// environment variable `env` (in MiB, for tuning experiments) says otherwise; elsewhere up to 512 MiB before
// a call works in chunks.
inline std::int64_t cache_chunk_bytes(const char* env, double default_mib) {
  const char* value = std::getenv(env);
  return std::int64_t((value ? std::atof(value) : default_mib) * (1 << 20));
}
inline constexpr std::int64_t large_chunk_bytes = std::int64_t(512) << 20;

// core_parts(q, n): how many parts of n a call on q may run at once, one per CPU thread (1 on a GPU).
inline std::int64_t core_parts(const Queue& q, std::int64_t n) {
  return q.device().is_cpu() ? std::max<std::int64_t>(1, std::min<std::int64_t>(q.cpu_threads(), n)) : 1;
}

// Runs body(part_queue, begin, end, scratch) over [0, n) in `parts` contiguous parts, each with its own
// block of scratch_floats(begin, end) floats leased from q first (in the calling thread, so the blocks a
// call holds are the same from call to call). With parts > 1 (at most core_parts(q, n)) the parts run at
// once, one per CPU thread, each with a queue of one thread: every phase of a part (the im2col patches and
// their GEMM, Winograd's transforms and products) runs on the core that made its data, so that data moves
// through that core's caches only. Run phase by phase, each phase parallel on its own, a thread reads half of
// what the other wrote; a cloud host that places the two cores on different L3 caches (for minutes at a
// time) sends that half through memory, and layers ran 1.3x slower in one process than in the next
// (docs/benchmarking.md). With one part, body runs on q itself. The first exception a part throws is
// rethrown after all parts end.
template <class ScratchFloats, class Body>
void for_each_core_part(Queue& q, std::int64_t n, std::int64_t parts, const char* purpose,
                        const ScratchFloats& scratch_floats, const Body& body) {
  if (n <= 0) return;
  auto begin_of = [&](std::int64_t part) { return n * part / parts; };
  std::vector<portkern::detail::ScratchPool::Lease> blocks;
  blocks.reserve(std::size_t(parts));
  for (std::int64_t part = 0; part < parts; ++part)
    blocks.push_back(lease_floats(q, scratch_floats(begin_of(part), begin_of(part + 1)), purpose));
  if (parts == 1) return body(q, std::int64_t(0), n, blocks[0].as<float>());
  std::exception_ptr first;
  std::mutex first_mutex;
#pragma omp parallel for schedule(static, 1) num_threads(int(parts))
  for (std::int64_t part = 0; part < parts; ++part) {
    try {
      Queue one_thread(q.device(), 1);
      one_thread.set_gemm_family(q.gemm_family());
      body(one_thread, begin_of(part), begin_of(part + 1), blocks[std::size_t(part)].as<float>());
    } catch (...) {
      const std::lock_guard lock(first_mutex);
      if (!first) first = std::current_exception();
    }
  }
  if (first) std::rethrow_exception(first);
}

// for_each_core_part over `rows` rows of `row_floats` scratch floats each, every part walking its rows in chunks of
// as many as `budget_floats` hold (at least one, at most a part's share): body(part_queue, r0, r1, scratch) on each
// chunk [r0, r1), with the part's block of chunk * row_floats floats (im2col's patches, a channel group's).
template <class Body>
void for_each_core_chunk(Queue& q, std::int64_t rows, std::int64_t parts, std::int64_t row_floats,
                         std::int64_t budget_floats, const char* purpose, const Body& body) {
  const std::int64_t chunk = std::clamp<std::int64_t>(budget_floats / row_floats, 1, (rows + parts - 1) / parts);
  for_each_core_part(
      q, rows, parts, purpose,
      [&](std::int64_t begin, std::int64_t end) { return std::min(chunk, end - begin) * row_floats; },
      [&](Queue& part_queue, std::int64_t begin, std::int64_t end, float* scratch) {
        for (std::int64_t r0 = begin; r0 < end; r0 += chunk) body(part_queue, r0, std::min(end, r0 + chunk), scratch);
      });
}

// Why an algorithm that needs dilation 1 cannot take `d`; empty when it can.
inline std::string undilated(const Conv2dDesc& d) {
  if (d.dilation_h != 1 || d.dilation_w != 1) return "dilation > 1 takes the direct path only";
  return "";
}

// Why an algorithm that needs dilation 1 and one group cannot take `d`; empty when it can.
inline std::string dense_undilated(const Conv2dDesc& d) {
  if (std::string why = undilated(d); !why.empty()) return why;
  if (d.groups != 1)
    return "groups = " + std::to_string(d.groups) + " takes the depthwise, grouped, implicit or direct path only";
  return "";
}

}  // namespace portkern::conv2d_impl
