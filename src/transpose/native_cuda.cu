// The hand-written CUDA transpose the portable kernel is measured against: the classic 32 x 32 shared-memory
// tile with a padded column, 32 x 8 threads, as a CUDA engineer writes it.
#include "portkern/runtime/cuda_check.hpp"
#include "transpose/backends.hpp"

namespace portkern::transpose_backends {

namespace {
constexpr int tile = 32, block_rows = 8;

__global__ void transpose_native(std::int64_t rows, std::int64_t cols, const float* __restrict__ in,
                                 std::int64_t ld_in, float* __restrict__ out, std::int64_t ld_out) {
  __shared__ float buffer[tile][tile + 1];
  const std::int64_t row0 = std::int64_t(blockIdx.y) * tile, col0 = std::int64_t(blockIdx.x) * tile;
  const std::int64_t col = col0 + threadIdx.x;
#pragma unroll
  for (int j = 0; j < tile; j += block_rows) {
    const std::int64_t row = row0 + threadIdx.y + j;
    if (row < rows && col < cols) buffer[threadIdx.y + j][threadIdx.x] = in[row * ld_in + col];
  }
  __syncthreads();
  const std::int64_t out_col = row0 + threadIdx.x;
#pragma unroll
  for (int j = 0; j < tile; j += block_rows) {
    const std::int64_t out_row = col0 + threadIdx.y + j;
    if (out_row < cols && out_col < rows) out[out_row * ld_out + out_col] = buffer[threadIdx.x][threadIdx.y + j];
  }
}
}  // namespace

void native_cuda(Queue& q, std::int64_t rows, std::int64_t cols, const float* in, std::int64_t ld_in, float* out,
                 std::int64_t ld_out) {
  const char* function = "portkern::transpose (native CUDA)";
  PORTKERN_CUDA_CHECK(function, cudaSetDevice(q.device().index()));
  const dim3 grid(unsigned((cols + tile - 1) / tile), unsigned((rows + tile - 1) / tile));
  transpose_native<<<grid, dim3(tile, block_rows), 0, static_cast<cudaStream_t>(q.native_stream())>>>(
      rows, cols, in, ld_in, out, ld_out);
  PORTKERN_CUDA_CHECK(function, cudaGetLastError());
}

}  // namespace portkern::transpose_backends
