// attention written directly in CUDA, for the portability comparison: the same plan (chunks of rows, the
// partial rows in the workspace, a combine pass), 256-thread blocks. Scores: warp w of the block takes row
// w of each 8-row tile, lanes stride the columns with float4 __ldg loads, warp-shuffle reduction; the
// chunk's max and sum with shuffles and one shared-memory step; the V pass and the combine as the portable
// ones (float4, 8 rows in flight).
#include <cmath>

#include "ops/attention/backends.hpp"
#include "portkern/runtime/cuda_check.hpp"

namespace portkern::ops::attention_impl {

namespace {

constexpr int threads = 256, warps = threads / 32, rows_per_tile = 8;

template <int Vec>
struct VecT;
template <>
struct VecT<1> {
  using type = float;
  static __device__ __forceinline__ float get(const float& v, int) { return v; }
  static __device__ __forceinline__ float& ref(float& v, int) { return v; }
};
template <>
struct VecT<4> {
  using type = float4;
  static __device__ __forceinline__ float get(const float4& v, int e) { return (&v.x)[e]; }
  static __device__ __forceinline__ float& ref(float4& v, int e) { return (&v.x)[e]; }
};

__device__ __forceinline__ float warp_sum(float v) {
#pragma unroll
  for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}
__device__ __forceinline__ float warp_max(float v) {
#pragma unroll
  for (int o = 16; o > 0; o /= 2) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
  return v;
}

// Block-wide sum or max of one value per thread, result in every thread.
template <bool Max>
__device__ __forceinline__ float block_reduce(float v, float* shared) {
  v = Max ? warp_max(v) : warp_sum(v);
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (lane == 0) shared[warp] = v;
  __syncthreads();
  float r = lane < warps ? shared[lane] : (Max ? -INFINITY : 0.f);
  r = Max ? warp_max(r) : warp_sum(r);
  __syncthreads();
  return r;
}

template <int Vec>
__global__ void __launch_bounds__(threads) chunk_native(Plan plan, const float* __restrict__ K,
                                                        const float* __restrict__ V, const float* __restrict__ q,
                                                        float* __restrict__ workspace) {
  using T = typename VecT<Vec>::type;
  __shared__ float scores[max_chunk_rows];
  __shared__ float red[warps];
  const std::int64_t d = plan.d, b = blockIdx.x, row0 = b * plan.chunk_rows;
  const int rows = int(plan.n - row0 < plan.chunk_rows ? plan.n - row0 : std::int64_t(plan.chunk_rows));
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const std::int64_t dv = d / Vec;
  const T* qv = reinterpret_cast<const T*>(q);
  for (int r = warp; r < rows; r += warps) {
    const T* kv = reinterpret_cast<const T*>(K + (row0 + r) * d);
    float acc0 = 0.f, acc1 = 0.f, acc2 = 0.f, acc3 = 0.f;
    std::int64_t c = lane;
    for (; c + 96 < dv; c += 128) {   // four float4 of K in flight per lane
      const T a0 = __ldg(kv + c), a1 = __ldg(kv + c + 32), a2 = __ldg(kv + c + 64), a3 = __ldg(kv + c + 96);
      const T x0 = __ldg(qv + c), x1 = __ldg(qv + c + 32), x2 = __ldg(qv + c + 64), x3 = __ldg(qv + c + 96);
#pragma unroll
      for (int e = 0; e < Vec; ++e) {
        acc0 += VecT<Vec>::get(a0, e) * VecT<Vec>::get(x0, e);
        acc1 += VecT<Vec>::get(a1, e) * VecT<Vec>::get(x1, e);
        acc2 += VecT<Vec>::get(a2, e) * VecT<Vec>::get(x2, e);
        acc3 += VecT<Vec>::get(a3, e) * VecT<Vec>::get(x3, e);
      }
    }
    for (; c < dv; c += 32) {
      const T a = __ldg(kv + c), x = __ldg(qv + c);
#pragma unroll
      for (int e = 0; e < Vec; ++e) acc0 += VecT<Vec>::get(a, e) * VecT<Vec>::get(x, e);
    }
    const float s = warp_sum((acc0 + acc1) + (acc2 + acc3));
    if (lane == 0) scores[r] = s;
  }
  __syncthreads();
  const float m = block_reduce<true>(threadIdx.x < rows ? scores[threadIdx.x] : -INFINITY, red);
  float w = 0.f;
  if (threadIdx.x < rows) scores[threadIdx.x] = w = expf(scores[threadIdx.x] - m);
  const float l = block_reduce<false>(w, red);   // its barriers publish the weights
  float* partial = workspace + plan.partial_offset() + b * d;
  const float* v0 = V + row0 * d;
  for (std::int64_t c = std::int64_t(threadIdx.x); c < dv; c += threads) {
    float acc[Vec] = {};
    int r = 0;
    for (; r + rows_per_tile <= rows; r += rows_per_tile) {
      T v[rows_per_tile];
#pragma unroll
      for (int u = 0; u < rows_per_tile; ++u) v[u] = __ldg(reinterpret_cast<const T*>(v0 + (r + u) * d) + c);
#pragma unroll
      for (int u = 0; u < rows_per_tile; ++u)
#pragma unroll
        for (int e = 0; e < Vec; ++e) acc[e] += scores[r + u] * VecT<Vec>::get(v[u], e);
    }
    for (; r < rows; ++r) {
      const T v = __ldg(reinterpret_cast<const T*>(v0 + r * d) + c);
#pragma unroll
      for (int e = 0; e < Vec; ++e) acc[e] += scores[r] * VecT<Vec>::get(v, e);
    }
    T o;
#pragma unroll
    for (int e = 0; e < Vec; ++e) VecT<Vec>::ref(o, e) = acc[e];
    reinterpret_cast<T*>(partial)[c] = o;
  }
  if (threadIdx.x == 0) {
    workspace[plan.max_offset() + b] = m;
    workspace[plan.sum_offset() + b] = l;
  }
}

template <int Vec>
__global__ void __launch_bounds__(threads) combine_native(Plan plan, const float* __restrict__ workspace,
                                                          float* __restrict__ out) {
  using T = typename VecT<Vec>::type;
  constexpr int X = 32 / Vec, Y = threads / X;
  __shared__ float red[warps];
  __shared__ float lanes[Y][X][Vec];
  const std::int64_t d = plan.d, B = plan.chunks;
  const float* cmax = workspace + plan.max_offset();
  const float* csum = workspace + plan.sum_offset();
  float m = -INFINITY;
  for (std::int64_t b = threadIdx.x; b < B; b += threads) m = fmaxf(m, __ldg(cmax + b));
  const float M = block_reduce<true>(m, red);
  float s = 0.f;
  for (std::int64_t b = threadIdx.x; b < B; b += threads) s += expf(__ldg(cmax + b) - M) * __ldg(csum + b);
  const float L = block_reduce<false>(s, red);
  const int x = threadIdx.x % X, y = threadIdx.x / X;
  const std::int64_t c = blockIdx.x * 32 + std::int64_t(x) * Vec;
  float acc[Vec] = {};
  if (c < d)
    for (std::int64_t b = y; b < B; b += Y) {
      const float scale = expf(__ldg(cmax + b) - M);
      const T p = __ldg(reinterpret_cast<const T*>(workspace + plan.partial_offset() + b * d + c));
#pragma unroll
      for (int e = 0; e < Vec; ++e) acc[e] += scale * VecT<Vec>::get(p, e);
    }
#pragma unroll
  for (int e = 0; e < Vec; ++e) lanes[y][x][e] = acc[e];
  __syncthreads();
  if (y == 0 && c < d) {
    T o;
#pragma unroll
    for (int e = 0; e < Vec; ++e) {
      float t = 0.f;
      for (int yy = 0; yy < Y; ++yy) t += lanes[yy][x][e];
      VecT<Vec>::ref(o, e) = t / L;
    }
    *reinterpret_cast<T*>(out + c) = o;
  }
}

template <int Vec>
void launch(Queue& queue, const Plan& plan, const float* K, const float* V, const float* q, float* out,
            float* workspace) {
  auto stream = static_cast<cudaStream_t>(queue.native_stream());
  chunk_native<Vec><<<unsigned(plan.chunks), threads, 0, stream>>>(plan, K, V, q, workspace);
  PORTKERN_CUDA_CHECK("portkern::ops::attention (native)", cudaGetLastError());
  combine_native<Vec><<<unsigned((plan.d + 31) / 32), threads, 0, stream>>>(plan, workspace, out);
  PORTKERN_CUDA_CHECK("portkern::ops::attention (native)", cudaGetLastError());
}

}  // namespace

void native_cuda(Queue& queue, const Plan& plan, bool vector, const float* K, const float* V, const float* q,
                 float* out, float* workspace) {
  if (plan.chunks == 0 || plan.d == 0) return;
  if (vector) return launch<4>(queue, plan, K, V, q, out, workspace);
  launch<1>(queue, plan, K, V, q, out, workspace);
}

}  // namespace portkern::ops::attention_impl
