// flip written directly in CUDA, for the portability comparison: the same plan (merged dimensions, one row
// lookup per block), 256 threads, 16 elements per thread (16 KB per block: fewer, fuller blocks) at a stride of 256, read-only loads via __ldg.
#include "ops/flip/backends.hpp"
#include "portkern/runtime/cuda_check.hpp"

namespace portkern::ops::flip_impl {

namespace {

constexpr int threads = 256, per_thread = 16, chunk = threads * per_thread;

template <class T>
__global__ void __launch_bounds__(threads) flip_native(Plan plan, std::int64_t chunks_per_row, const T* __restrict__ in,
                                                       T* __restrict__ out) {
  const std::int64_t block = blockIdx.x;
  const std::int64_t row = block / chunks_per_row, col0 = (block % chunks_per_row) * chunk;
  const T* src = in + source_row(plan, row) * plan.length;
  T* dst = out + row * plan.length;
  const std::int64_t last = plan.length - 1;
#pragma unroll
  for (int e = 0; e < per_thread; ++e) {
    const std::int64_t c = col0 + e * threads + threadIdx.x;
    if (c < plan.length) dst[c] = __ldg(src + (plan.last_flipped ? last - c : c));
  }
}

}  // namespace

template <class T>
void native_cuda(Queue& queue, const Plan& plan, const T* in, T* out) {
  const std::int64_t chunks = (plan.length + chunk - 1) / chunk;
  const std::int64_t blocks = plan.rows * chunks;
  if (blocks == 0) return;
  flip_native<T><<<unsigned(blocks), threads, 0, static_cast<cudaStream_t>(queue.native_stream())>>>(plan, chunks, in,
                                                                                                      out);
  PORTKERN_CUDA_CHECK("portkern::ops::flip (native)", cudaGetLastError());
}
template void native_cuda(Queue&, const Plan&, const float*, float*);
template void native_cuda(Queue&, const Plan&, const double*, double*);

}  // namespace portkern::ops::flip_impl
