// The runtime's own CUDA kernels: fill, and the micro-benchmarks behind measure_ceilings() (an FMA loop and
// a large device-to-device copy, each timed with events after a warm-up).
#include <algorithm>
#include <cstdint>
#include <cstring>

#include "portkern/runtime/cuda_check.hpp"
#include "runtime/cuda/cuda_backend.hpp"
#include "runtime/cuda/cuda_kernels.hpp"

namespace portkern::detail::cuda {

namespace {

template <class T>
__global__ void fill_kernel(T* dst, T value, std::size_t count) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride) dst[i] = value;
}

template <class T>
void fill_as(cudaStream_t stream, void* dst, const void* pattern, std::size_t count) {
  T value;
  std::memcpy(&value, pattern, sizeof(T));
  const unsigned blocks = unsigned(std::min<std::size_t>((count + 255) / 256, 65536));
  fill_kernel<T><<<blocks, 256, 0, stream>>>(static_cast<T*>(dst), value, count);
  PORTKERN_CUDA_CHECK("portkern::Queue::fill", cudaGetLastError());
}

// Each thread runs `iterations` x 8 independent FMA chains: enough parallelism to fill every FMA pipe.
template <class T>
__global__ void fma_kernel(T* out, int iterations, T a, T b) {
  T x[8];
  for (int j = 0; j < 8; ++j) x[j] = T(threadIdx.x + j);
  for (int i = 0; i < iterations; ++i) {
#pragma unroll
    for (int j = 0; j < 8; ++j) x[j] = x[j] * a + b;
  }
  T sum = 0;
  for (int j = 0; j < 8; ++j) sum += x[j];
  if (sum == T(-1.2345)) out[0] = sum;   // never true: keeps the loop alive
}

template <class T>
double fma_gflops(int sms, T* out, cudaStream_t stream) {
  const int blocks = sms * 8, threads = 256, iterations = 4096;
  cudaEvent_t start, stop;
  PORTKERN_CUDA_CHECK("portkern::measure_ceilings", cudaEventCreate(&start));
  PORTKERN_CUDA_CHECK("portkern::measure_ceilings", cudaEventCreate(&stop));
  fma_kernel<T><<<blocks, threads, 0, stream>>>(out, iterations, T(0.999), T(0.001));   // warm-up
  PORTKERN_CUDA_CHECK("portkern::measure_ceilings", cudaGetLastError());
  PORTKERN_CUDA_CHECK("portkern::measure_ceilings", cudaEventRecord(start, stream));
  const int reps = 5;
  for (int r = 0; r < reps; ++r) fma_kernel<T><<<blocks, threads, 0, stream>>>(out, iterations, T(0.999), T(0.001));
  PORTKERN_CUDA_CHECK("portkern::measure_ceilings", cudaGetLastError());
  PORTKERN_CUDA_CHECK("portkern::measure_ceilings", cudaEventRecord(stop, stream));
  PORTKERN_CUDA_CHECK("portkern::measure_ceilings", cudaEventSynchronize(stop));
  float ms = 0;
  PORTKERN_CUDA_CHECK("portkern::measure_ceilings", cudaEventElapsedTime(&ms, start, stop));
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  const double flops = 2.0 * 8 * iterations * double(blocks) * threads * reps;
  return flops / (ms * 1e-3) / 1e9;
}

}  // namespace

void launch_fill(cudaStream_t stream, void* dst, const void* pattern, std::size_t pattern_bytes, std::size_t count) {
  if (count == 0) return;
  switch (pattern_bytes) {
    case 1: return fill_as<std::uint8_t>(stream, dst, pattern, count);
    case 2: return fill_as<std::uint16_t>(stream, dst, pattern, count);
    case 4: return fill_as<std::uint32_t>(stream, dst, pattern, count);
    case 8: return fill_as<std::uint64_t>(stream, dst, pattern, count);
    default: fail("portkern::Queue::fill", "element size must be 1, 2, 4 or 8 bytes");
  }
}

Ceilings measure_ceilings(int device) {
  const char* fn = "portkern::measure_ceilings";
  PORTKERN_CUDA_CHECK(fn, cudaSetDevice(device));
  int sms = 0;
  PORTKERN_CUDA_CHECK(fn, cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  cudaStream_t stream;
  PORTKERN_CUDA_CHECK(fn, cudaStreamCreate(&stream));
  Ceilings c;
  double* scratch = nullptr;
  PORTKERN_CUDA_CHECK(fn, cudaMalloc(&scratch, sizeof(double)));
  c.gflops_fp32 = fma_gflops<float>(sms, reinterpret_cast<float*>(scratch), stream);
  c.gflops_fp64 = fma_gflops<double>(sms, scratch, stream);
  PORTKERN_CUDA_CHECK(fn, cudaFree(scratch));

  // Copy bandwidth: 1 GiB device to device, counting bytes read plus bytes written.
  const std::size_t bytes = std::size_t(1) << 30;
  void *src = nullptr, *dst = nullptr;
  PORTKERN_CUDA_CHECK(fn, cudaMalloc(&src, bytes));
  PORTKERN_CUDA_CHECK(fn, cudaMalloc(&dst, bytes));
  PORTKERN_CUDA_CHECK(fn, cudaMemsetAsync(src, 1, bytes, stream));
  cudaEvent_t start, stop;
  PORTKERN_CUDA_CHECK(fn, cudaEventCreate(&start));
  PORTKERN_CUDA_CHECK(fn, cudaEventCreate(&stop));
  PORTKERN_CUDA_CHECK(fn, cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, stream));   // warm-up
  const int reps = 10;
  PORTKERN_CUDA_CHECK(fn, cudaEventRecord(start, stream));
  for (int r = 0; r < reps; ++r) PORTKERN_CUDA_CHECK(fn, cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, stream));
  PORTKERN_CUDA_CHECK(fn, cudaEventRecord(stop, stream));
  PORTKERN_CUDA_CHECK(fn, cudaEventSynchronize(stop));
  float ms = 0;
  PORTKERN_CUDA_CHECK(fn, cudaEventElapsedTime(&ms, start, stop));
  c.copy_gbs = 2.0 * double(bytes) * reps / (ms * 1e-3) / 1e9;
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaFree(src);
  cudaFree(dst);
  cudaStreamDestroy(stream);
  return c;
}

}  // namespace portkern::detail::cuda
