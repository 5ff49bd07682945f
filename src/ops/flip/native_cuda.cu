// flip written directly in CUDA, for the portability comparison: the same plan and layout as the portable
// kernel (merged dimensions, 256 threads of 16 elements, all loads before the stores, short rows packed
// several to a block), with __restrict__ pointers and read-only loads via __ldg.
#include "ops/flip/backends.hpp"
#include "ops/flip/kernel.hpp"
#include "portkern/runtime/cuda_check.hpp"

namespace portkern::ops::flip_impl {

namespace {

constexpr int threads = 256, per_thread = 16;
constexpr std::int64_t chunk = std::int64_t(threads) * per_thread;

template <class T>
__global__ void __launch_bounds__(threads) flip_native(Plan plan, std::int64_t chunks_per_row,
                                                       std::int64_t rows_per_group, const T* __restrict__ in,
                                                       T* __restrict__ out) {
  const std::int64_t block = blockIdx.x, last = plan.length - 1;
  T v[per_thread];
  if (rows_per_group == 1) {
    const std::int64_t row = block / chunks_per_row, col0 = (block % chunks_per_row) * chunk;
    const T* src = in + source_row(plan, row) * plan.length;
    T* dst = out + row * plan.length;
#pragma unroll
    for (int e = 0; e < per_thread; ++e) {
      const std::int64_t c = col0 + e * threads + threadIdx.x;
      if (c < plan.length) v[e] = __ldg(src + (plan.last_flipped ? last - c : c));
    }
#pragma unroll
    for (int e = 0; e < per_thread; ++e) {
      const std::int64_t c = col0 + e * threads + threadIdx.x;
      if (c < plan.length) dst[c] = v[e];
    }
    return;
  }
  const std::int64_t row0 = block * rows_per_group;
  const std::int64_t row_end = min(row0 + rows_per_group, plan.rows);
  std::int64_t row = row0, col = threadIdx.x;
  const T* src = in + source_row(plan, row) * plan.length;
#pragma unroll
  for (int e = 0; e < per_thread; ++e) {
    if (row < row_end) v[e] = __ldg(src + (plan.last_flipped ? last - col : col));
    col += threads;
    if (col >= plan.length) {
      col -= plan.length;
      if (++row < row_end) src = in + source_row(plan, row) * plan.length;
    }
  }
  row = row0, col = threadIdx.x;
#pragma unroll
  for (int e = 0; e < per_thread; ++e) {
    if (row < row_end) out[row * plan.length + col] = v[e];
    col += threads;
    if (col >= plan.length) col -= plan.length, ++row;
  }
}

}  // namespace

template <class T>
void native_cuda(Queue& queue, const Plan& plan, const T* in, T* out) {
  std::int64_t chunks_per_row, rows_per_group, blocks;
  FlipKernel<T, threads, per_thread>::layout(plan, chunks_per_row, rows_per_group, blocks);
  if (blocks == 0) return;
  flip_native<T><<<unsigned(blocks), threads, 0, static_cast<cudaStream_t>(queue.native_stream())>>>(
      plan, chunks_per_row, rows_per_group, in, out);
  PORTKERN_CUDA_CHECK("portkern::ops::flip (native)", cudaGetLastError());
}
template void native_cuda(Queue&, const Plan&, const float*, float*);
template void native_cuda(Queue&, const Plan&, const double*, double*);

}  // namespace portkern::ops::flip_impl
