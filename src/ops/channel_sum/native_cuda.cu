// channel_sum written directly in CUDA, for the portability comparison: the same plan (plan.hpp). NCHW: 256
// threads per plane segment, int4 __ldg loads, 4 in flight, warp-shuffle then shared-memory reduction, two
// 64-bit atomics per block. NHWC: 32 x 8 threads over a 32-channel tile, shared-memory combine of the rows.
#include "ops/channel_sum/backends.hpp"
#include "portkern/runtime/cuda_check.hpp"

namespace portkern::ops::channel_sum_impl {

namespace {

using u64 = unsigned long long;

__device__ __forceinline__ void add(u64& s, u64& q, int x) {
  const long long v = x;
  s += u64(v);
  q += u64(v * v);
}

__global__ void zero_native(std::int64_t c, std::int64_t* sum, std::int64_t* sumsq) {
  const std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < c) sum[i] = 0, sumsq[i] = 0;
}

constexpr int threads = 256, unroll = 4;

template <class V>
__global__ void __launch_bounds__(threads) nchw_native(Plan plan, const int* __restrict__ in, std::int64_t* sum,
                                                       std::int64_t* sumsq) {
  constexpr int width = sizeof(V) / sizeof(int);
  const std::int64_t plane = blockIdx.x / plan.segments, s0 = (blockIdx.x % plan.segments) * plan.segment;
  const std::int64_t channel = plane % plan.c;
  const std::int64_t s1 = plan.hw - s0 < plan.segment ? plan.hw : s0 + plan.segment;
  const int* src = in + plane * plan.hw;
  u64 s = 0, q = 0;
  for (std::int64_t base = s0; base < s1; base += std::int64_t(threads) * width * unroll) {
    V v[unroll];
#pragma unroll
    for (int u = 0; u < unroll; ++u) {
      const std::int64_t j = base + (std::int64_t(u) * threads + threadIdx.x) * width;
      if (j < s1) v[u] = __ldg(reinterpret_cast<const V*>(src + j));
    }
#pragma unroll
    for (int u = 0; u < unroll; ++u) {
      const std::int64_t j = base + (std::int64_t(u) * threads + threadIdx.x) * width;
      if (j < s1) {
        if constexpr (width == 4) add(s, q, v[u].x), add(s, q, v[u].y), add(s, q, v[u].z), add(s, q, v[u].w);
        else add(s, q, v[u]);
      }
    }
  }
#pragma unroll
  for (int d = 16; d > 0; d /= 2) s += __shfl_down_sync(0xffffffffu, s, d), q += __shfl_down_sync(0xffffffffu, q, d);
  __shared__ u64 ws[threads / 32], wq[threads / 32];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0) ws[warp] = s, wq[warp] = q;
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int w = 1; w < threads / 32; ++w) s += ws[w], q += wq[w];
    atomicAdd(reinterpret_cast<u64*>(sum + channel), s);
    atomicAdd(reinterpret_cast<u64*>(sumsq + channel), q);
  }
}

constexpr int tx = 32, ty = 8, nhwc_unroll = 4;

__global__ void __launch_bounds__(tx* ty) nhwc_native(Plan plan, const int* __restrict__ in, std::int64_t* sum,
                                                      std::int64_t* sumsq) {
  const std::int64_t tile = blockIdx.x % plan.tiles, p0 = (blockIdx.x / plan.tiles) * plan.span;
  const std::int64_t pixels = plan.n * plan.hw, c = plan.c;
  const std::int64_t p1 = pixels - p0 < plan.span ? pixels : p0 + plan.span;
  const int width = plan.width, per_row = plan.per_row;
  const std::int64_t step = std::int64_t(ty) * per_row;
  const int cx = threadIdx.x % width, px = threadIdx.x / width;
  const std::int64_t co = tile * tx + cx;
  u64 s = 0, q = 0;
  if (px < per_row && co < c) {
    for (std::int64_t p = p0 + std::int64_t(threadIdx.y) * per_row + px; p < p1; p += step * nhwc_unroll) {
      int v[nhwc_unroll];
#pragma unroll
      for (int u = 0; u < nhwc_unroll; ++u) v[u] = p + u * step < p1 ? __ldg(in + (p + u * step) * c + co) : 0;
#pragma unroll
      for (int u = 0; u < nhwc_unroll; ++u) add(s, q, v[u]);
    }
  }
  __shared__ u64 ps[ty][tx], pq[ty][tx];
  ps[threadIdx.y][threadIdx.x] = s, pq[threadIdx.y][threadIdx.x] = q;
  __syncthreads();
  const std::int64_t out = tile * tx + threadIdx.x;
  if (threadIdx.y != 0 || int(threadIdx.x) >= width || out >= c) return;
  s = 0, q = 0;
  for (int y = 0; y < ty; ++y)
    for (int k = 0; k < per_row; ++k) s += ps[y][threadIdx.x + k * width], q += pq[y][threadIdx.x + k * width];
  atomicAdd(reinterpret_cast<u64*>(sum + out), s);
  atomicAdd(reinterpret_cast<u64*>(sumsq + out), q);
}

}  // namespace

void native_cuda(Queue& queue, const Plan& plan, const std::int32_t* in, std::int64_t* sum, std::int64_t* sumsq) {
  const auto stream = static_cast<cudaStream_t>(queue.native_stream());
  if (plan.c == 0) return;
  zero_native<<<unsigned((plan.c + 255) / 256), 256, 0, stream>>>(plan.c, sum, sumsq);
  if (plan.n * plan.hw > 0) {
    if (plan.nhwc)
      nhwc_native<<<unsigned(plan.tiles * plan.chunks), dim3(tx, ty), 0, stream>>>(plan, in, sum, sumsq);
    else if (plan.vector)
      nchw_native<int4><<<unsigned(plan.n * plan.c * plan.segments), threads, 0, stream>>>(plan, in, sum, sumsq);
    else
      nchw_native<int><<<unsigned(plan.n * plan.c * plan.segments), threads, 0, stream>>>(plan, in, sum, sumsq);
  }
  PORTKERN_CUDA_CHECK("portkern::ops::channel_sum (native)", cudaGetLastError());
}

}  // namespace portkern::ops::channel_sum_impl
