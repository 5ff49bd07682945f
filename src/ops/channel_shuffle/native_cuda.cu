// channel_shuffle written directly in CUDA, for the portability comparison. NCHW: 256 threads copy 4 float4
// (or 4 floats) of one plane each, source plane found once per block, __ldg loads. NHWC: 32 x 8 threads, a
// warp covers 32 channels of a pixel (or floor(32 / C) whole pixels for C < 32), 8 pixel steps per thread.
#include "ops/channel_shuffle/backends.hpp"
#include "portkern/runtime/cuda_check.hpp"

namespace portkern::ops::channel_shuffle_impl {

namespace {

constexpr int threads = 256, per_thread = 4;

template <class V>
__global__ void __launch_bounds__(threads) nchw_native(Plan plan, std::int64_t chunks_per_plane,
                                                       const float* __restrict__ in, float* __restrict__ out) {
  constexpr int width = sizeof(V) / sizeof(float);
  constexpr std::int64_t chunk = std::int64_t(threads) * per_thread * width;
  const std::int64_t block = blockIdx.x;
  const std::int64_t plane = block / chunks_per_plane, col0 = (block % chunks_per_plane) * chunk;
  const std::int64_t b = plane / plan.c, co = plane % plan.c;
  const std::int64_t ci = (co % plan.groups) * plan.k + co / plan.groups;
  const V* src = reinterpret_cast<const V*>(in + (b * plan.c + ci) * plan.hw + col0);
  V* dst = reinterpret_cast<V*>(out + plane * plan.hw + col0);
  const std::int64_t n = (plan.hw - col0 < chunk ? plan.hw - col0 : chunk) / width;
  V v[per_thread];
#pragma unroll
  for (int e = 0; e < per_thread; ++e) {
    const std::int64_t j = e * threads + threadIdx.x;
    if (j < n) v[e] = __ldg(src + j);
  }
#pragma unroll
  for (int e = 0; e < per_thread; ++e) {
    const std::int64_t j = e * threads + threadIdx.x;
    if (j < n) dst[j] = v[e];
  }
}

constexpr int warp = 32, rows = 8, steps = 8;

__global__ void __launch_bounds__(warp* rows) nhwc_native(Plan plan, std::int64_t tiles, int width, int per_row,
                                                          const float* __restrict__ in, float* __restrict__ out) {
  const std::int64_t tile = blockIdx.x % tiles, chunk = blockIdx.x / tiles;
  const int cx = threadIdx.x % width, px = threadIdx.x / width;
  const std::int64_t co = tile * warp + cx;
  if (px >= per_row || co >= plan.c) return;
  const std::int64_t ci = (co % plan.groups) * plan.k + co / plan.groups;
  const std::int64_t pixels = plan.n * plan.hw, step = std::int64_t(rows) * per_row;
  std::int64_t p = chunk * step * steps + std::int64_t(threadIdx.y) * per_row + px;
  float v[steps];
#pragma unroll
  for (int r = 0; r < steps; ++r)
    if (p + r * step < pixels) v[r] = __ldg(in + (p + r * step) * plan.c + ci);
#pragma unroll
  for (int r = 0; r < steps; ++r)
    if (p + r * step < pixels) out[(p + r * step) * plan.c + co] = v[r];
}

}  // namespace

void native_cuda(Queue& queue, const Plan& plan, const float* in, float* out) {
  const auto stream = static_cast<cudaStream_t>(queue.native_stream());
  if (plan.n * plan.c * plan.hw == 0) return;
  if (!plan.nhwc) {
    const std::int64_t chunk = std::int64_t(threads) * per_thread * (plan.vector ? 4 : 1);
    const std::int64_t chunks = (plan.hw + chunk - 1) / chunk;
    const unsigned blocks = unsigned(plan.n * plan.c * chunks);
    if (plan.vector) nchw_native<float4><<<blocks, threads, 0, stream>>>(plan, chunks, in, out);
    else nchw_native<float><<<blocks, threads, 0, stream>>>(plan, chunks, in, out);
  } else {
    const int width = plan.c < warp ? int(plan.c) : warp, per_row = warp / width;
    const std::int64_t tiles = (plan.c + warp - 1) / warp;
    const std::int64_t per_block = std::int64_t(rows) * per_row * steps;
    const std::int64_t chunks = (plan.n * plan.hw + per_block - 1) / per_block;
    nhwc_native<<<unsigned(chunks * tiles), dim3(warp, rows), 0, stream>>>(plan, tiles, width, per_row, in, out);
  }
  PORTKERN_CUDA_CHECK("portkern::ops::channel_shuffle (native)", cudaGetLastError());
}

}  // namespace portkern::ops::channel_shuffle_impl
