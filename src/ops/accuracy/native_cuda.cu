// accuracy written directly in CUDA, for the portability comparison: one block of 256 threads per row,
// label and score broadcast by a uniform __ldg, 4 independent float4 __ldg loads per thread per step, a
// warp-shuffle + shared-memory block sum, one atomicAdd per correct row. Expects the count zeroed.
#include "ops/accuracy/backends.hpp"
#include "portkern/runtime/cuda_check.hpp"

namespace portkern::ops::accuracy_impl {

namespace {

constexpr int threads = 256, unroll = 4;

__device__ __forceinline__ int ahead(float x, float s, std::int64_t c, std::int64_t y) {
  return (x > s) | ((x == s) & (c <= y));
}

__global__ void __launch_bounds__(threads) accuracy_native(Args a) {
  const std::int64_t r = blockIdx.x;
  const std::int64_t y = __ldg(a.labels + r);
  if (y < 0 || y >= a.classes) return;
  const float* __restrict__ row = a.scores + r * a.classes;
  const float s = __ldg(row + y);
  int n = 0;
  std::int64_t done = 0;
  if (a.vectorized) {
    const std::int64_t nvec = a.classes / 4;
    const float4* __restrict__ row4 = reinterpret_cast<const float4*>(row);
    for (std::int64_t base = threadIdx.x; base < nvec; base += threads * unroll) {
      float4 v[unroll];
#pragma unroll
      for (int u = 0; u < unroll; ++u)
        if (base + u * threads < nvec) v[u] = __ldg(row4 + base + u * threads);
#pragma unroll
      for (int u = 0; u < unroll; ++u) {
        const std::int64_t i = base + u * threads;
        if (i < nvec)
          n += ahead(v[u].x, s, 4 * i, y) + ahead(v[u].y, s, 4 * i + 1, y) + ahead(v[u].z, s, 4 * i + 2, y) +
               ahead(v[u].w, s, 4 * i + 3, y);
      }
    }
    done = nvec * 4;
  }
  for (std::int64_t c = done + threadIdx.x; c < a.classes; c += threads) n += ahead(__ldg(row + c), s, c, y);
#pragma unroll
  for (int off = 16; off > 0; off /= 2) n += __shfl_xor_sync(0xffffffffu, n, off);
  __shared__ int part[threads / 32];
  if (threadIdx.x % 32 == 0) part[threadIdx.x / 32] = n;
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int w = 1; w < threads / 32; ++w) n += part[w];
    if (n <= a.top_k) atomicAdd(a.count, 1);
  }
}

}  // namespace

void native_cuda(Queue& queue, const Args& a) {
  if (a.rows == 0) return;
  accuracy_native<<<unsigned(a.rows), threads, 0, static_cast<cudaStream_t>(queue.native_stream())>>>(a);
  PORTKERN_CUDA_CHECK("portkern::ops::accuracy (native)", cudaGetLastError());
}

}  // namespace portkern::ops::accuracy_impl
