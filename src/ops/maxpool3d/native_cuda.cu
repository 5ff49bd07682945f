// maxpool3d written directly in CUDA, for the portability comparison: the same tiling (32 x 8 threads, 8
// output rows per block), float4 __ldg loads of both input rows for window = stride = 2, the same NaN rule.
#include <cstdint>

#include "ops/maxpool3d/backends.hpp"
#include "portkern/runtime/cuda_check.hpp"

namespace portkern::ops::maxpool3d_impl {

namespace {

constexpr int tx = 32, ty = 8;

__device__ __forceinline__ float mx(float m, float v) { return (v > m || v != v) ? v : m; }

template <bool Vector>
__global__ void __launch_bounds__(tx* ty) maxpool_native(Plan plan, std::int64_t column_chunks,
                                                         const float* __restrict__ in, float* __restrict__ out) {
  constexpr int k_per = Vector ? 4 : 8;
  constexpr std::int64_t columns = std::int64_t(tx) * k_per * (Vector ? 4 : 1);
  const std::int64_t block = blockIdx.x / column_chunks, col0 = (blockIdx.x % column_chunks) * columns;
  const std::int64_t r0 = block * ty;
  if (r0 + threadIdx.y >= plan.z * plan.h_out) return;
  std::int64_t z = r0 / plan.h_out, row = r0 % plan.h_out + threadIdx.y;
  while (row >= plan.h_out) row -= plan.h_out, ++z;
  const float* src = in + (z * plan.h_in + row * plan.stride) * plan.w_in;
  float* dst = out + (z * plan.h_out + row) * plan.w_out;
  if constexpr (Vector) {
    float4 a[k_per][4];
#pragma unroll
    for (int k = 0; k < k_per; ++k) {
      const std::int64_t o = col0 + (std::int64_t(k) * tx + threadIdx.x) * 4;
      if (o < plan.w_out) {
        const float4* top = reinterpret_cast<const float4*>(src + 2 * o);
        const float4* bottom = reinterpret_cast<const float4*>(src + plan.w_in + 2 * o);
        a[k][0] = __ldg(top), a[k][1] = __ldg(top + 1), a[k][2] = __ldg(bottom), a[k][3] = __ldg(bottom + 1);
      }
    }
#pragma unroll
    for (int k = 0; k < k_per; ++k) {
      const std::int64_t o = col0 + (std::int64_t(k) * tx + threadIdx.x) * 4;
      if (o >= plan.w_out) continue;
      float4 m;
      m.x = mx(mx(mx(a[k][0].x, a[k][0].y), a[k][2].x), a[k][2].y);
      m.y = mx(mx(mx(a[k][0].z, a[k][0].w), a[k][2].z), a[k][2].w);
      m.z = mx(mx(mx(a[k][1].x, a[k][1].y), a[k][3].x), a[k][3].y);
      m.w = mx(mx(mx(a[k][1].z, a[k][1].w), a[k][3].z), a[k][3].w);
      *reinterpret_cast<float4*>(dst + o) = m;
    }
  } else {
#pragma unroll
    for (int k = 0; k < k_per; ++k) {
      const std::int64_t o = col0 + std::int64_t(k) * tx + threadIdx.x;
      if (o >= plan.w_out) continue;
      const float* w = src + o * plan.stride;
      float m = -INFINITY;
      for (std::int64_t r = 0; r < plan.window; ++r, w += plan.w_in)
        for (std::int64_t c = 0; c < plan.window; ++c) m = mx(m, __ldg(w + c));
      dst[o] = m;
    }
  }
}

}  // namespace

void native_cuda(Queue& queue, const Plan& plan, const float* in, float* out) {
  const auto stream = static_cast<cudaStream_t>(queue.native_stream());
  if (plan.z * plan.h_out * plan.w_out == 0) return;
  const std::int64_t columns = plan.vector ? tx * 4 * 4 : tx * 8;
  const std::int64_t chunks = (plan.w_out + columns - 1) / columns;
  const std::int64_t blocks = (plan.z * plan.h_out + ty - 1) / ty * chunks;
  if (plan.vector) maxpool_native<true><<<unsigned(blocks), dim3(tx, ty), 0, stream>>>(plan, chunks, in, out);
  else maxpool_native<false><<<unsigned(blocks), dim3(tx, ty), 0, stream>>>(plan, chunks, in, out);
  PORTKERN_CUDA_CHECK("portkern::ops::maxpool3d (native)", cudaGetLastError());
}

}  // namespace portkern::ops::maxpool3d_impl
