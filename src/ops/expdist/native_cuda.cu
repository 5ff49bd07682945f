// expdist written directly in CUDA, for the portability comparison: the same blocking (32 x 8 threads, 128
// a-points x 256 b-points per block through shared memory, 4 a-points per thread in registers, term()),
// the block's sum by warp shuffles and one shared slot per warp, one partial per block; a second one-block
// kernel sums the partials in float64 with shuffles. Deterministic, like the portable one.
#include "ops/expdist/backends.hpp"
#include "ops/expdist/kernel.hpp"
#include "portkern/runtime/cuda_check.hpp"

namespace portkern::ops::expdist_impl {

namespace {

template <class T>
__device__ __forceinline__ T warp_sum(T v) {
#pragma unroll
  for (int d = 16; d > 0; d /= 2) v += __shfl_down_sync(0xffffffffu, v, d);
  return v;
}

template <class T>
__global__ void __launch_bounds__(group_x * group_y) pairs_native(std::int64_t m, std::int64_t n, std::int64_t a_blocks,
                                                                  const T* __restrict__ a, const T* __restrict__ b,
                                                                  const T* __restrict__ sigma_a,
                                                                  const T* __restrict__ sigma_b, T* __restrict__ partials) {
  __shared__ T ax[a_block], ay[a_block], as[a_block], bx[b_block], by[b_block], bs[b_block];
  __shared__ T warp_sums[group_y];
  const std::int64_t blk = blockIdx.x, ab = blk % a_blocks, bb = blk / a_blocks;
  const std::int64_t a0 = ab * a_block, b0 = bb * b_block;
  const int a_valid = int(m - a0 < a_block ? m - a0 : a_block);
  const int b_valid = int(n - b0 < b_block ? n - b0 : b_block);
  const int tx = threadIdx.x, ty = threadIdx.y, l = ty * group_x + tx;
  const bool bv = l < b_valid;
  bx[l] = bv ? __ldg(b + b0 + l) : T(0);
  by[l] = bv ? __ldg(b + n + b0 + l) : T(0);
  bs[l] = bv ? __ldg(sigma_b + b0 + l) : T(1);
  if (l < a_block) {
    const bool av = l < a_valid;
    ax[l] = av ? __ldg(a + a0 + l) : T(0);
    ay[l] = av ? __ldg(a + m + a0 + l) : T(0);
    as[l] = av ? __ldg(sigma_a + a0 + l) : T(1);
  }
  __syncthreads();
  T px[a_per_item], py[a_per_item], ps[a_per_item], acc[a_per_item];
#pragma unroll
  for (int k = 0; k < a_per_item; ++k) {
    const int i = tx + group_x * k;
    px[k] = ax[i], py[k] = ay[i], ps[k] = as[i], acc[k] = T(0);
  }
  const int j0 = ty * b_per_row;
  const int jn = b_valid - j0 < b_per_row ? b_valid - j0 : b_per_row;
  for (int j = 0; j < jn; ++j) {
    const T qx = bx[j0 + j], qy = by[j0 + j], qs = bs[j0 + j];
#pragma unroll
    for (int k = 0; k < a_per_item; ++k) acc[k] += term(px[k], py[k], ps[k], qx, qy, qs);
  }
  T sum = T(0);
#pragma unroll
  for (int k = 0; k < a_per_item; ++k) sum += tx + group_x * k < a_valid ? acc[k] : T(0);
  sum = warp_sum(sum);
  if (tx == 0) warp_sums[ty] = sum;
  __syncthreads();
  if (l == 0) {
    T total = T(0);
#pragma unroll
    for (int w = 0; w < group_y; ++w) total += warp_sums[w];
    partials[blk] = total;
  }
}

template <class T>
__global__ void __launch_bounds__(256) sum_native(std::int64_t count, const T* __restrict__ partials, T* cost) {
  __shared__ double warp_sums[8];
  double s = 0;
  for (std::int64_t i = threadIdx.x; i < count; i += 256) s += double(partials[i]);
  s = warp_sum(s);
  if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = s;
  __syncthreads();
  if (threadIdx.x == 0) {
    double total = 0;
    for (int w = 0; w < 8; ++w) total += warp_sums[w];
    cost[0] = T(total);
  }
}

}  // namespace

template <class T>
void native_cuda(Queue& queue, std::int64_t m, std::int64_t n, const T* a, const T* b, const T* sigma_a,
                 const T* sigma_b, T* cost, T* workspace) {
  if (m == 0 || n == 0) return;
  const auto stream = static_cast<cudaStream_t>(queue.native_stream());
  const Blocks bl = blocks(m, n);
  pairs_native<T><<<unsigned(bl.count()), dim3(group_x, group_y), 0, stream>>>(m, n, bl.a_blocks, a, b, sigma_a,
                                                                               sigma_b, workspace);
  sum_native<T><<<1, 256, 0, stream>>>(bl.count(), workspace, cost);
  PORTKERN_CUDA_CHECK("portkern::ops::expdist (native)", cudaGetLastError());
}
template void native_cuda(Queue&, std::int64_t, std::int64_t, const float*, const float*, const float*, const float*,
                          float*, float*);
template void native_cuda(Queue&, std::int64_t, std::int64_t, const double*, const double*, const double*,
                          const double*, double*, double*);

}  // namespace portkern::ops::expdist_impl
