// gd written directly in CUDA, for the portability comparison: the same three passes and workspace layout as
// the portable kernels (deterministic), a warp per row / column with __ldg loads and shuffle reductions,
// 8 warps per block; the finish kernel reduces the partials in float64 with shuffles.
#include "ops/gd/backends.hpp"
#include "portkern/runtime/cuda_check.hpp"

namespace portkern::ops::gd_impl {

namespace {

constexpr int threads = lanes * per_group;

__device__ __forceinline__ float warp_sum(float v) {
#pragma unroll
  for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}
__device__ __forceinline__ double warp_sum(double v) {
#pragma unroll
  for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}

template <class Gather>
__device__ __forceinline__ float sparse_dot(std::int64_t begin, std::int64_t end, int lane,
                                            const std::int32_t* __restrict__ idx, const float* __restrict__ val,
                                            Gather gather) {
  float s0 = 0.f, s1 = 0.f;
  std::int64_t k = begin + lane;
  for (; k + 32 < end; k += 64) {
    s0 += __ldg(val + k) * gather(__ldg(idx + k));
    s1 += __ldg(val + k + 32) * gather(__ldg(idx + k + 32));
  }
  if (k < end) s0 += __ldg(val + k) * gather(__ldg(idx + k));
  return warp_sum(s0 + s1);
}

__global__ void __launch_bounds__(threads) rows_native(Params p, const std::int64_t* __restrict__ row_ptr,
                                                       const std::int32_t* __restrict__ col_idx,
                                                       const float* __restrict__ values,
                                                       const float* __restrict__ labels, const float* __restrict__ x,
                                                       float* __restrict__ workspace) {
  __shared__ float loss[per_group], correct[per_group];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const std::int64_t i = std::int64_t(blockIdx.x) * per_group + warp;
  float l = 0.f, c = 0.f;
  if (i < p.rows) {
    const float z = sparse_dot(__ldg(row_ptr + i), __ldg(row_ptr + i + 1), lane, col_idx, values,
                               [&](std::int32_t col) { return __ldg(x + col); });
    const float label = __ldg(labels + i);
    const float t = -label * z;
    l = t > 0.f ? t + log1pf(expf(-t)) : log1pf(expf(t));
    c = (z >= 0.f ? 1.f : -1.f) == label ? 1.f : 0.f;
    const float sig = t >= 0.f ? 1.f / (1.f + expf(-t)) : expf(t) / (1.f + expf(t));
    if (lane == 0) workspace[p.r_offset() + i] = -label * sig;
  }
  if (lane == 0) loss[warp] = l, correct[warp] = c;
  __syncthreads();
  if (threadIdx.x == 0) {
    float sl = 0.f, sc = 0.f;
#pragma unroll
    for (int y = 0; y < per_group; ++y) sl += loss[y], sc += correct[y];
    workspace[p.loss_offset() + blockIdx.x] = sl;
    workspace[p.correct_offset() + blockIdx.x] = sc;
  }
}

__global__ void __launch_bounds__(threads) cols_native(Params p, const std::int64_t* __restrict__ t_row_ptr,
                                                       const std::int32_t* __restrict__ t_col_idx,
                                                       const float* __restrict__ t_values, float* __restrict__ x,
                                                       float* __restrict__ workspace) {
  __shared__ float xsq[per_group];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const std::int64_t j = std::int64_t(blockIdx.x) * per_group + warp;
  const float* r = workspace + p.r_offset();
  float s = 0.f;
  if (j < p.cols) {
    const float grad = sparse_dot(__ldg(t_row_ptr + j), __ldg(t_row_ptr + j + 1), lane, t_col_idx, t_values,
                                  [&](std::int32_t i) { return r[i]; });
    const float xj = x[j];
    s = xj * xj;
    if (lane == 0) x[j] = xj - p.alpha * (grad / float(p.rows) + p.lambda * xj);
  }
  if (lane == 0) xsq[warp] = s;
  __syncthreads();
  if (threadIdx.x == 0) {
    float t = 0.f;
#pragma unroll
    for (int y = 0; y < per_group; ++y) t += xsq[y];
    workspace[p.xsq_offset() + blockIdx.x] = t;
  }
}

__device__ double block_sum(double v, double* shared) {
  v = warp_sum(v);
  if (threadIdx.x % 32 == 0) shared[threadIdx.x / 32] = v;
  __syncthreads();
  double t = threadIdx.x < threads / 32 ? shared[threadIdx.x] : 0.0;
  t = warp_sum(t);
  __syncthreads();
  return t;
}

__global__ void __launch_bounds__(threads) finish_native(Params p, const float* __restrict__ workspace,
                                                         float* __restrict__ objective_error) {
  __shared__ double shared[threads / 32];
  double l = 0, c = 0, s = 0;
  for (std::int64_t k = threadIdx.x; k < p.row_groups; k += threads) {
    l += workspace[p.loss_offset() + k];
    c += workspace[p.correct_offset() + k];
  }
  for (std::int64_t k = threadIdx.x; k < p.col_groups; k += threads) s += workspace[p.xsq_offset() + k];
  l = block_sum(l, shared);
  c = block_sum(c, shared);
  s = block_sum(s, shared);
  if (threadIdx.x == 0) {
    objective_error[0] = float(l / double(p.rows) + 0.5 * double(p.lambda) * s);
    objective_error[1] = float(1.0 - c / double(p.rows));
  }
}

}  // namespace

void native_cuda(Queue& queue, const Params& p, const GdMatrix& A, const float* labels, float* x,
                 float* objective_error, float* workspace) {
  auto stream = static_cast<cudaStream_t>(queue.native_stream());
  rows_native<<<unsigned(p.row_groups), threads, 0, stream>>>(p, A.row_ptr, A.col_idx, A.values, labels, x, workspace);
  PORTKERN_CUDA_CHECK("portkern::ops::gd (native)", cudaGetLastError());
  cols_native<<<unsigned(p.col_groups), threads, 0, stream>>>(p, A.t_row_ptr, A.t_col_idx, A.t_values, x, workspace);
  PORTKERN_CUDA_CHECK("portkern::ops::gd (native)", cudaGetLastError());
  finish_native<<<1, threads, 0, stream>>>(p, workspace, objective_error);
  PORTKERN_CUDA_CHECK("portkern::ops::gd (native)", cudaGetLastError());
}

}  // namespace portkern::ops::gd_impl
