// glu written directly in CUDA, for the portability comparison: the same flat chunking and row walk, 256
// threads, four float4 (or float) vectors per thread, all loads (__ldg) issued before the stores, the same
// overflow-free sigmoid with expf as the portable kernel.
#include "ops/glu/backends.hpp"
#include "ops/glu/row_walk.hpp"
#include "portkern/runtime/cuda_check.hpp"

namespace portkern::ops::glu_impl {

namespace {

constexpr int threads = 256, per_thread = 4;

__device__ __forceinline__ float sigmoid(float q) {
  if (q >= 0.f) return 1.f / (1.f + expf(-q));
  const float e = expf(q);
  return e / (1.f + e);
}

template <int V>
struct Vec;
template <>
struct Vec<4> {
  using type = float4;
};
template <>
struct Vec<1> {
  using type = float;
};

__device__ __forceinline__ float4 glu4(float4 p, float4 q) {
  return make_float4(p.x * sigmoid(q.x), p.y * sigmoid(q.y), p.z * sigmoid(q.z), p.w * sigmoid(q.w));
}
__device__ __forceinline__ float glu4(float p, float q) { return p * sigmoid(q); }

template <int V>
__global__ void __launch_bounds__(threads) glu_native(row_walk::Plan plan, const float* __restrict__ x,
                                                      float* __restrict__ y) {
  using T = typename Vec<V>::type;
  const std::int64_t first = std::int64_t(blockIdx.x) * plan.chunk + std::int64_t(threadIdx.x) * V;
  row_walk::Pos pos = row_walk::item_start<false>(plan, row_walk::group_start(plan, blockIdx.x),
                                                  std::int64_t(threadIdx.x) * V);
  T p[per_thread], q[per_thread];
#pragma unroll
  for (int k = 0; k < per_thread; ++k) {
    if (first + k * plan.step < plan.total) {
      const float* src = x + pos.row * 2 * plan.length + pos.col;
      p[k] = __ldg(reinterpret_cast<const T*>(src));
      q[k] = __ldg(reinterpret_cast<const T*>(src + plan.length));
    }
    row_walk::advance<false>(plan, pos);
  }
#pragma unroll
  for (int k = 0; k < per_thread; ++k)
    if (first + k * plan.step < plan.total) *reinterpret_cast<T*>(y + first + k * plan.step) = glu4(p[k], q[k]);
}

template <int V>
void launch(Queue& queue, const Problem& p, const float* x, float* y) {
  const auto plan = row_walk::make_plan(p.rows, p.half, 1, std::int64_t(threads) * V, per_thread);
  if (plan.groups() == 0) return;
  glu_native<V><<<unsigned(plan.groups()), threads, 0, static_cast<cudaStream_t>(queue.native_stream())>>>(plan, x,
                                                                                                           y);
  PORTKERN_CUDA_CHECK("portkern::ops::glu (native)", cudaGetLastError());
}

}  // namespace

void native_cuda(Queue& queue, const Problem& p, const float* x, float* y) {
  if (vector_width(p, x, y) == 4) launch<4>(queue, p, x, y);
  else launch<1>(queue, p, x, y);
}

}  // namespace portkern::ops::glu_impl
