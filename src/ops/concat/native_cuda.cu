// concat written directly in CUDA, for the portability comparison: the same flat chunking and row walk, 256
// threads, four float4 (or float) copies per thread, all __ldg loads issued before the stores.
#include "ops/concat/backends.hpp"
#include "ops/glu/row_walk.hpp"
#include "portkern/runtime/cuda_check.hpp"

namespace portkern::ops::concat_impl {

namespace {

constexpr int threads = 256, per_thread = 4;

template <class T>
__global__ void __launch_bounds__(threads) concat_native(row_walk::Plan plan, std::int64_t len1, std::int64_t len2,
                                                         const float* __restrict__ in1,
                                                         const float* __restrict__ in2, float* __restrict__ out) {
  constexpr int V = sizeof(T) / sizeof(float);
  const std::int64_t first = std::int64_t(blockIdx.x) * plan.chunk + std::int64_t(threadIdx.x) * V;
  row_walk::Pos pos = row_walk::item_start<false>(plan, row_walk::group_start(plan, blockIdx.x),
                                                  std::int64_t(threadIdx.x) * V);
  T v[per_thread];
#pragma unroll
  for (int k = 0; k < per_thread; ++k) {
    if (first + k * plan.step < plan.total)
      v[k] = __ldg(reinterpret_cast<const T*>(pos.col < len1 ? in1 + pos.row * len1 + pos.col
                                                            : in2 + pos.row * len2 + (pos.col - len1)));
    row_walk::advance<false>(plan, pos);
  }
#pragma unroll
  for (int k = 0; k < per_thread; ++k)
    if (first + k * plan.step < plan.total) *reinterpret_cast<T*>(out + first + k * plan.step) = v[k];
}

template <class T>
void launch(Queue& queue, const Problem& p, const float* in1, const float* in2, float* out) {
  constexpr int V = sizeof(T) / sizeof(float);
  const auto plan = row_walk::make_plan(p.rows, p.len1 + p.len2, 1, std::int64_t(threads) * V, per_thread);
  if (plan.groups() == 0) return;
  concat_native<T><<<unsigned(plan.groups()), threads, 0, static_cast<cudaStream_t>(queue.native_stream())>>>(
      plan, p.len1, p.len2, in1, in2, out);
  PORTKERN_CUDA_CHECK("portkern::ops::concat (native)", cudaGetLastError());
}

}  // namespace

void native_cuda(Queue& queue, const Problem& p, const float* in1, const float* in2, float* out) {
  if (vector_width(p, in1, in2, out) == 4) launch<float4>(queue, p, in1, in2, out);
  else launch<float>(queue, p, in1, in2, out);
}

}  // namespace portkern::ops::concat_impl
