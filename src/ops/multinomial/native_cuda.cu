// multinomial written directly in CUDA, for the portability comparison: the same algorithm (one block of
// 128 threads per row, 16 consecutive weights per thread as four float4 __ldg, the first 2048-chunk kept in
// registers between the sum and the search), with warp-shuffle block sum, scan, min and max.
#include <climits>

#include "ops/multinomial/backends.hpp"
#include "portkern/runtime/cuda_check.hpp"

namespace portkern::ops::multinomial_impl {

namespace {

constexpr int threads = 128, per = 16, warps = threads / 32;
constexpr std::int64_t chunk = std::int64_t(threads) * per;

template <class T, class Op>
__device__ __forceinline__ T block_reduce(T v, Op op, T* shared) {
#pragma unroll
  for (int off = 16; off > 0; off /= 2) v = op(v, __shfl_xor_sync(0xffffffffu, v, off));
  if (threadIdx.x % 32 == 0) shared[threadIdx.x / 32] = v;
  __syncthreads();
  T total = shared[0];
#pragma unroll
  for (int w = 1; w < warps; ++w) total = op(total, shared[w]);
  __syncthreads();
  return total;
}

__device__ __forceinline__ void load(float (&x)[per], const Args& a, const float* __restrict__ row, std::int64_t base) {
  const std::int64_t j0 = base + std::int64_t(threadIdx.x) * per;
  if (a.vectorized) {
#pragma unroll
    for (int q = 0; q < per / 4; ++q) {
      const std::int64_t j = j0 + 4 * q;
      const float4 v = j < a.categories ? __ldg(reinterpret_cast<const float4*>(row + j)) : make_float4(0, 0, 0, 0);
      x[4 * q] = v.x, x[4 * q + 1] = v.y, x[4 * q + 2] = v.z, x[4 * q + 3] = v.w;
    }
  } else {
#pragma unroll
    for (int e = 0; e < per; ++e) x[e] = j0 + e < a.categories ? __ldg(row + j0 + e) : 0.f;
  }
}

__device__ __forceinline__ float segment_sum(const float (&x)[per]) {
  float s = 0.f;
#pragma unroll
  for (int e = 0; e < per; ++e) s += x[e];
  return s;
}

__global__ void __launch_bounds__(threads) sample_native(Args a) {
  __shared__ float fsh[warps];
  __shared__ int ish[warps];
  const std::int64_t r = blockIdx.x;
  const float* __restrict__ row = a.weights + r * a.categories;
  const auto add = [](float p, float q) { return p + q; };
  float x[per];
  float part = 0.f;
  for (std::int64_t base = chunk; base < a.categories; base += chunk) {
    load(x, a, row, base);
    part += segment_sum(x);
  }
  load(x, a, row, 0);
  part += segment_sum(x);
  const float total = block_reduce(part, add, fsh);
  if (!(total > 0.f)) {
    if (threadIdx.x == 0) a.out[r] = 0;
    return;
  }
  const float target = __ldg(a.uniforms + r) * total;
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  float carry = 0.f;
  int last = -1;
  for (std::int64_t base = 0; base < a.categories; base += chunk) {
    if (base > 0) load(x, a, row, base);
    const float mine = segment_sum(x);
    float v = mine;   // inclusive scan of the segment sums: warps, then the warps' totals
#pragma unroll
    for (int d = 1; d < 32; d *= 2) {
      const float before = __shfl_up_sync(0xffffffffu, v, d);
      if (lane >= d) v += before;
    }
    if (lane == 31) fsh[warp] = v;
    __syncthreads();
    float before_warp = 0.f, chunk_total = 0.f;
#pragma unroll
    for (int w = 0; w < warps; ++w) {
      if (w < warp) before_warp += fsh[w];
      chunk_total += fsh[w];
    }
    __syncthreads();
    float prefix = carry + before_warp + (v - mine);
    const std::int64_t j0 = base + std::int64_t(threadIdx.x) * per;
    int first = INT_MAX, lastpos = -1;
#pragma unroll
    for (int e = 0; e < per; ++e) {
      prefix += x[e];
      if (x[e] > 0.f && prefix > target && first == INT_MAX) first = int(j0 + e);
      if (x[e] > 0.f) lastpos = int(j0 + e);
    }
    first = block_reduce(first, [](int p, int q) { return p < q ? p : q; }, ish);
    lastpos = block_reduce(lastpos, [](int p, int q) { return p > q ? p : q; }, ish);
    if (first != INT_MAX) {
      if (threadIdx.x == 0) a.out[r] = first;
      return;
    }
    last = max(last, lastpos);
    carry += chunk_total;
  }
  if (threadIdx.x == 0) a.out[r] = last < 0 ? 0 : last;
}

}  // namespace

void native_cuda(Queue& queue, const Args& a) {
  if (a.rows == 0) return;
  sample_native<<<unsigned(a.rows), threads, 0, static_cast<cudaStream_t>(queue.native_stream())>>>(a);
  PORTKERN_CUDA_CHECK("portkern::ops::multinomial (native)", cudaGetLastError());
}

}  // namespace portkern::ops::multinomial_impl
