// gelu written directly in CUDA, for the portability comparison: the same flat chunking and row walk, 256
// threads, four vectors per thread (uint4 = 4 half2, or one half2, or one half), loads via __ldg issued
// before the stores, the add as __hadd2 and the GELU in float with tanhf, as the portable kernel.
#include <cuda_fp16.h>

#include "ops/gelu/backends.hpp"
#include "ops/glu/row_walk.hpp"
#include "portkern/runtime/cuda_check.hpp"

namespace portkern::ops::gelu_impl {

namespace {

constexpr int threads = 256, per_thread = 4;

__device__ __forceinline__ float gelu_f(float u) {
  return 0.5f * u * (1.f + tanhf(0.79788456f * (u + 0.044715f * u * u * u)));
}
__device__ __forceinline__ __half2 gelu2(__half2 x, __half2 b) {
  const float2 u = __half22float2(__hadd2(x, b));
  return __floats2half2_rn(gelu_f(u.x), gelu_f(u.y));
}

template <int V>
struct Access;   // the vector type of V halves and its element-wise operation
template <>
struct Access<8> {
  using type = uint4;
  __device__ static uint4 op(uint4 x, uint4 b) {
    uint4 y;
    const __half2* xh = reinterpret_cast<const __half2*>(&x);
    const __half2* bh = reinterpret_cast<const __half2*>(&b);
    __half2* yh = reinterpret_cast<__half2*>(&y);
#pragma unroll
    for (int i = 0; i < 4; ++i) yh[i] = gelu2(xh[i], bh[i]);
    return y;
  }
};
template <>
struct Access<2> {
  using type = __half2;
  __device__ static __half2 op(__half2 x, __half2 b) { return gelu2(x, b); }
};
template <>
struct Access<1> {
  using type = __half;
  __device__ static __half op(__half x, __half b) { return __float2half_rn(gelu_f(__half2float(__hadd(x, b)))); }
};

template <int V>
__global__ void __launch_bounds__(threads) gelu_native(row_walk::Plan plan, half* __restrict__ src,
                                                       const half* __restrict__ bias) {
  using A = Access<V>;
  using T = typename A::type;
  const std::int64_t first = std::int64_t(blockIdx.x) * plan.chunk + std::int64_t(threadIdx.x) * V;
  row_walk::Pos pos = row_walk::item_start<false>(plan, row_walk::group_start(plan, blockIdx.x),
                                                  std::int64_t(threadIdx.x) * V);
  T x[per_thread], b[per_thread];
#pragma unroll
  for (int k = 0; k < per_thread; ++k) {
    if (first + k * plan.step < plan.total) {
      x[k] = __ldg(reinterpret_cast<const T*>(src + first + k * plan.step));
      b[k] = __ldg(reinterpret_cast<const T*>(bias + pos.col));
    }
    row_walk::advance<false>(plan, pos);
  }
#pragma unroll
  for (int k = 0; k < per_thread; ++k)
    if (first + k * plan.step < plan.total)
      *reinterpret_cast<T*>(src + first + k * plan.step) = A::op(x[k], b[k]);
}

template <int V>
void launch(Queue& queue, std::int64_t rows, std::int64_t hidden, half* src, const half* bias) {
  const auto plan = row_walk::make_plan(rows, hidden, 1, std::int64_t(threads) * V, per_thread);
  if (plan.groups() == 0) return;
  gelu_native<V><<<unsigned(plan.groups()), threads, 0, static_cast<cudaStream_t>(queue.native_stream())>>>(
      plan, src, bias);
  PORTKERN_CUDA_CHECK("portkern::ops::gelu (native)", cudaGetLastError());
}

}  // namespace

void native_cuda(Queue& queue, std::int64_t rows, std::int64_t hidden, half* src, const half* bias) {
  const int v = vector_width(hidden, src, bias);
  if (v == 8) launch<8>(queue, rows, hidden, src, bias);
  else if (v == 2) launch<2>(queue, rows, hidden, src, bias);
  else launch<1>(queue, rows, hidden, src, bias);
}

}  // namespace portkern::ops::gelu_impl
