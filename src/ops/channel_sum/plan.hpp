// channel_sum as the kernels see it: how the input is cut into groups (see kernel.hpp), decided once on the
// host. Also the 64-bit atomic add the kernels use (kernel::atomic_add has no 64-bit integer on CUDA).
#pragma once

#include <cstdint>

#if !defined(__CUDA_ARCH__)
#include <atomic>
#endif

#include "portkern/kernel/model.hpp"

namespace portkern::ops::channel_sum_impl {

constexpr std::int64_t target_groups = 4096;   // enough to fill an H100 (1056 resident blocks) about 4 times

// How a launch cuts the work: the groups it aims at, and the NHWC kernel's channels per tile, item rows and
// pixel steps per pass (its compile-time X, Y and Unroll). CUDA's (the default, and the native twin's) fills
// the GPU. On the CPU a group is a loop nest on one thread: a few per thread balance the load, while every
// further group costs a reduction and one atomic add per channel that the threads contend for (4096 groups of
// 32 pixels ran at a tenth of the copy bandwidth on NHWC); its tiles are runs of up to 512 channels, whole
// pixels up to C = 512 (2 threads, --size default, C = 512: 32-channel tiles 4 GB/s, 128 11 GB/s, 512 27).
struct Cut {
  std::int64_t groups = target_groups;
  int tile_channels = 32, item_rows = 8, unroll = 4;
};
constexpr int cpu_tile_channels = 512, cpu_item_rows = 2, cpu_unroll = 8;
inline Cut cpu_cut(int threads) {
  return Cut{8 * std::int64_t(threads < 1 ? 1 : threads), cpu_tile_channels, cpu_item_rows, cpu_unroll};
}

struct Plan {
  std::int64_t n = 0, c = 0, hw = 0;
  bool nhwc = false;
  bool vector = false;             // NCHW: 16-byte loads
  // NCHW: each (n, c) plane is cut into `segments` segments of `segment` elements (a multiple of 4).
  std::int64_t segments = 1, segment = 0;
  // NHWC: channel tiles of X (the cut's tile_channels); the pixels cut into `chunks` chunks of `span` pixels.
  std::int64_t tiles = 1, chunks = 1, span = 0;
  int width = 32, per_row = 1;     // NHWC: channels per item row (min(C, X)), pixels per item row (X / width)
};

// Adds v to *p modulo 2^64 (two's complement: the same bits for int64 and uint64).
PORTKERN_INLINE void atomic_add_wrapping(std::int64_t* p, unsigned long long v) {
#if defined(__CUDA_ARCH__)
  atomicAdd(reinterpret_cast<unsigned long long*>(p), v);
#else
  std::atomic_ref<unsigned long long>(*reinterpret_cast<unsigned long long*>(p)).fetch_add(v, std::memory_order_relaxed);
#endif
}

inline Plan make_plan(bool nhwc, std::int64_t n, std::int64_t c, std::int64_t hw, bool aligned,
                      const Cut& cut = {}) {
  Plan plan;
  plan.n = n, plan.c = c, plan.hw = hw;
  plan.nhwc = nhwc || hw == 1;   // [n][c][1] is [n][1][c]
  if (n * c * hw == 0) return plan;   // only the outputs' zeroing runs
  if (!plan.nhwc) {
    plan.vector = hw % 4 == 0 && aligned;
    const std::int64_t planes = n * c, unit = 256 * 4 * 4;                 // one pass of the group
    const std::int64_t max_segments = (hw + unit - 1) / unit;
    std::int64_t segments = (cut.groups + planes - 1) / planes;
    segments = segments < 1 ? 1 : segments > max_segments ? max_segments : segments;
    plan.segment = ((hw + segments - 1) / segments + 3) / 4 * 4;
    plan.segments = (hw + plan.segment - 1) / plan.segment;
  } else {
    const int x = cut.tile_channels;
    plan.width = c < x ? int(c) : x;
    plan.per_row = x / plan.width;
    plan.tiles = (c + x - 1) / x;
    const std::int64_t pixels = n * hw, pass = std::int64_t(cut.item_rows) * plan.per_row * cut.unroll;
    std::int64_t chunks = (cut.groups + plan.tiles - 1) / plan.tiles;
    const std::int64_t max_chunks = (pixels + pass - 1) / pass;
    chunks = chunks < 1 ? 1 : chunks > max_chunks ? max_chunks : chunks;
    plan.span = ((pixels + chunks - 1) / chunks + pass - 1) / pass * pass;
    plan.chunks = (pixels + plan.span - 1) / plan.span;
  }
  return plan;
}

}  // namespace portkern::ops::channel_sum_impl
