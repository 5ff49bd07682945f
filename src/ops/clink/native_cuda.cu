// clink written directly in CUDA, for the portability comparison: one thread per sequence, 32-thread blocks,
// weights as a by-value kernel argument (constant bank), x and y through a shared [64][33] tile copied
// row-wise with __ldg loads, the same step function (step()) as the portable kernel.
#include "ops/clink/backends.hpp"
#include "ops/clink/kernel.hpp"
#include "portkern/runtime/cuda_check.hpp"

namespace portkern::ops::clink_impl {

namespace {

constexpr int rows_per_block = 32, chunk = 64;

__global__ void __launch_bounds__(rows_per_block) clink_native(const ClinkWeights w, std::int64_t sequences,
                                                               std::int64_t steps, const float* __restrict__ x,
                                                               float* __restrict__ y) {
  __shared__ float tile[chunk][rows_per_block + 1];
  const std::int64_t row0 = std::int64_t(blockIdx.x) * rows_per_block;
  const int rows = int(sequences - row0 < rows_per_block ? sequences - row0 : rows_per_block);
  const int lane = threadIdx.x;
  float h[5] = {}, c[5] = {};
  for (std::int64_t t0 = 0; t0 < steps; t0 += chunk) {
    const int len = int(steps - t0 < chunk ? steps - t0 : chunk);
#pragma unroll
    for (int e = 0; e < chunk; ++e) {
      const int l = e * rows_per_block + lane, r = l / chunk, t = l % chunk;
      if (r < rows && t < len) tile[t][r] = __ldg(x + (row0 + r) * steps + t0 + t);
    }
    __syncwarp();
    if (lane < rows)
      for (int t = 0; t < len; ++t) tile[t][lane] = step(w, tile[t][lane], h, c);
    __syncwarp();
#pragma unroll
    for (int e = 0; e < chunk; ++e) {
      const int l = e * rows_per_block + lane, r = l / chunk, t = l % chunk;
      if (r < rows && t < len) y[(row0 + r) * steps + t0 + t] = tile[t][r];
    }
    __syncwarp();
  }
}

}  // namespace

void native_cuda(Queue& queue, std::int64_t sequences, std::int64_t steps, const ClinkWeights& w, const float* x,
                 float* y) {
  if (sequences == 0 || steps == 0) return;
  const unsigned blocks = unsigned((sequences + rows_per_block - 1) / rows_per_block);
  clink_native<<<blocks, rows_per_block, 0, static_cast<cudaStream_t>(queue.native_stream())>>>(w, sequences, steps,
                                                                                               x, y);
  PORTKERN_CUDA_CHECK("portkern::ops::clink (native)", cudaGetLastError());
}

}  // namespace portkern::ops::clink_impl
