// meanshift written directly in CUDA, for the portability comparison. global: one thread per point, 64-thread
// blocks, neighbours through __ldg. tiled: 16 x 16 threads (16 points x 16 slices), float4 tiles of 256
// neighbours in shared memory, the 16 partial sums of a point added in slice order; accumulate() as the
// portable kernels.
#include "ops/meanshift/backends.hpp"
#include "ops/meanshift/kernel.hpp"
#include "portkern/runtime/cuda_check.hpp"

namespace portkern::ops::meanshift_impl {

namespace {

__global__ void __launch_bounds__(64) global_native(Params c, std::int64_t n, const float* __restrict__ in,
                                                    float* __restrict__ out) {
  const std::int64_t i = std::int64_t(blockIdx.x) * 64 + threadIdx.x;
  if (i >= n) return;
  const float px = __ldg(in + 3 * i), py = __ldg(in + 3 * i + 1), pz = __ldg(in + 3 * i + 2);
  float s[4] = {0.f, 0.f, 0.f, 0.f};
  for (std::int64_t j = 0; j < n; ++j) accumulate(c, px, py, pz, __ldg(in + 3 * j), __ldg(in + 3 * j + 1), __ldg(in + 3 * j + 2), s);
  out[3 * i] = s[0] / s[3];
  out[3 * i + 1] = s[1] / s[3];
  out[3 * i + 2] = s[2] / s[3];
}

__global__ void __launch_bounds__(tile) tiled_native(Params c, std::int64_t n, const float* __restrict__ in,
                                                     float* __restrict__ out) {
  __shared__ float4 neighbours[tile];
  __shared__ float partial[4][tiled_slices][tiled_points];
  const int tx = threadIdx.x, ty = threadIdx.y, l = ty * tiled_points + tx;
  const std::int64_t i = std::int64_t(blockIdx.x) * tiled_points + tx;
  const bool valid = i < n;
  const float px = valid ? __ldg(in + 3 * i) : 0.f, py = valid ? __ldg(in + 3 * i + 1) : 0.f,
              pz = valid ? __ldg(in + 3 * i + 2) : 0.f;
  float s[4] = {0.f, 0.f, 0.f, 0.f};
  for (std::int64_t t0 = 0; t0 < n; t0 += tile) {
    const int count = int(n - t0 < tile ? n - t0 : tile);
    if (l < count) {
      const std::int64_t j = t0 + l;
      neighbours[l] = make_float4(__ldg(in + 3 * j), __ldg(in + 3 * j + 1), __ldg(in + 3 * j + 2), 0.f);
    }
    __syncthreads();
    const int j0 = ty * per_slice, jn = count - j0 < per_slice ? count - j0 : per_slice;
    for (int k = 0; k < jn; ++k) {
      const float4 q = neighbours[j0 + k];
      accumulate(c, px, py, pz, q.x, q.y, q.z, s);
    }
    __syncthreads();
  }
#pragma unroll
  for (int k = 0; k < 4; ++k) partial[k][ty][tx] = s[k];
  __syncthreads();
  if (ty == 0 && valid) {
    float t[4] = {0.f, 0.f, 0.f, 0.f};
    for (int y = 0; y < tiled_slices; ++y) {
#pragma unroll
      for (int k = 0; k < 4; ++k) t[k] += partial[k][y][tx];
    }
    out[3 * i] = t[0] / t[3];
    out[3 * i + 1] = t[1] / t[3];
    out[3 * i + 2] = t[2] / t[3];
  }
}

}  // namespace

void native_cuda(Queue& queue, bool tiled, const Params& c, std::int64_t n, const float* in, float* out) {
  if (n == 0) return;
  const auto stream = static_cast<cudaStream_t>(queue.native_stream());
  if (tiled)
    tiled_native<<<unsigned((n + tiled_points - 1) / tiled_points), dim3(tiled_points, tiled_slices), 0, stream>>>(
        c, n, in, out);
  else
    global_native<<<unsigned((n + 63) / 64), 64, 0, stream>>>(c, n, in, out);
  PORTKERN_CUDA_CHECK("portkern::ops::meanshift (native)", cudaGetLastError());
}

}  // namespace portkern::ops::meanshift_impl
