// dense_embedding written directly in CUDA, for the portability comparison: the same plan (a few whole rows
// per block of 64 x 4 threads, each row's batch found once by binary search into shared memory), float4
// __ldg loads of input and dense (the bench never runs it in place), 4 vectors in flight per thread.
#include <cstdint>

#include "ops/dense_embedding/backends.hpp"
#include "portkern/runtime/cuda_check.hpp"

namespace portkern::ops::dense_embedding_impl {

namespace {

constexpr int tx = 64, ty = 4, unroll = 4, max_rows = 64;

template <class V>
__global__ void __launch_bounds__(tx* ty) dense_native(Plan plan, const std::int64_t* __restrict__ offsets,
                                                       const float* __restrict__ input,
                                                       const float* __restrict__ dense, float* __restrict__ out) {
  constexpr int width = sizeof(V) / sizeof(float);
  __shared__ std::int64_t batch[max_rows];
  const std::int64_t row0 = plan.first_row + std::int64_t(blockIdx.x) * plan.rows_per_group;
  const std::int64_t rows = min(plan.last_row - row0, plan.rows_per_group);
  const std::int64_t dim = plan.dim, vectors = dim / width;
  const int t = threadIdx.y * tx + threadIdx.x;
  if (t < rows) {
    const std::int64_t e = (row0 + t) * dim;
    std::int64_t lo = 0, hi = plan.batches;
    while (hi - lo > 1) {
      const std::int64_t mid = (lo + hi) / 2;
      if (__ldg(offsets + mid) <= e) lo = mid;
      else hi = mid;
    }
    batch[t] = lo;
  }
  __syncthreads();
  for (std::int64_t r = threadIdx.y; r < rows; r += ty) {
    const V* src = reinterpret_cast<const V*>(input + (row0 + r) * dim);
    const V* add = reinterpret_cast<const V*>(dense + batch[r] * dim);
    V* dst = reinterpret_cast<V*>(out + (row0 + r) * dim);
    for (std::int64_t base = threadIdx.x; base < vectors; base += tx * unroll) {
      V a[unroll], b[unroll];
#pragma unroll
      for (int u = 0; u < unroll; ++u)
        if (base + u * tx < vectors) a[u] = __ldg(src + base + u * tx), b[u] = __ldg(add + base + u * tx);
#pragma unroll
      for (int u = 0; u < unroll; ++u) {
        if (base + u * tx >= vectors) continue;
        if constexpr (width == 4) a[u].x += b[u].x, a[u].y += b[u].y, a[u].z += b[u].z, a[u].w += b[u].w;
        else a[u] += b[u];
        dst[base + u * tx] = a[u];
      }
    }
  }
}

}  // namespace

void native_cuda(Queue& queue, const Plan& plan, const std::int64_t* offsets, const float* input, const float* dense,
                 float* out) {
  const auto stream = static_cast<cudaStream_t>(queue.native_stream());
  const std::int64_t groups = (plan.last_row - plan.first_row + plan.rows_per_group - 1) / plan.rows_per_group;
  if (groups <= 0) return;
  if (plan.vector) dense_native<float4><<<unsigned(groups), dim3(tx, ty), 0, stream>>>(plan, offsets, input, dense, out);
  else dense_native<float><<<unsigned(groups), dim3(tx, ty), 0, stream>>>(plan, offsets, input, dense, out);
  PORTKERN_CUDA_CHECK("portkern::ops::dense_embedding (native)", cudaGetLastError());
}

}  // namespace portkern::ops::dense_embedding_impl
