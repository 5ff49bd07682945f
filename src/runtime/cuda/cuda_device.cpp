// The runtime's CUDA back end: devices, memory, streams, copies and events through the CUDA runtime API.
#include <cuda_runtime.h>

#include <string>

#include "portkern/runtime/cuda_check.hpp"
#include "runtime/cuda/cuda_backend.hpp"
#include "runtime/cuda/cuda_kernels.hpp"

namespace portkern::detail::cuda {

namespace {
cudaStream_t as_stream(void* stream) { return static_cast<cudaStream_t>(stream); }
cudaEvent_t as_event(void* event) { return static_cast<cudaEvent_t>(event); }

int attribute(cudaDeviceAttr attr, int device) {
  int value = 0;
  PORTKERN_CUDA_CHECK("portkern::Device::properties", cudaDeviceGetAttribute(&value, attr, device));
  return value;
}

// FP32 lanes per multiprocessor by compute capability (the CUDA programming guide's throughput table).
int fp32_lanes_per_sm(int major, int minor) {
  if (major == 9 || major == 10 || major == 12) return 128;
  if (major == 8) return minor == 0 ? 64 : 128;
  if (major == 7) return 64;
  return 0;   // unknown: no theoretical peak
}
}  // namespace

int device_count() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    (void)cudaGetLastError();   // no driver or no GPU: not an error, just no devices
    return 0;
  }
  return count;
}

DeviceProperties properties(int device) {
  cudaDeviceProp prop{};
  PORTKERN_CUDA_CHECK("portkern::Device::properties", cudaGetDeviceProperties(&prop, device));
  DeviceProperties p;
  p.name = prop.name;
  p.arch = "sm_" + std::to_string(prop.major) + std::to_string(prop.minor);
  p.compute_units = prop.multiProcessorCount;
  p.memory_bytes = prop.totalGlobalMem;
  p.local_memory_bytes = prop.sharedMemPerBlockOptin;
  p.simd_width_fp32 = prop.warpSize;
  const double clock_khz = attribute(cudaDevAttrClockRate, device);
  const double memory_clock_khz = attribute(cudaDevAttrMemoryClockRate, device);
  const double bus_bits = attribute(cudaDevAttrGlobalMemoryBusWidth, device);
  p.clock_mhz = clock_khz / 1e3;
  p.peak_gflops_fp32 = 2.0 * fp32_lanes_per_sm(prop.major, prop.minor) * p.compute_units * clock_khz / 1e6;
  p.peak_bandwidth_gbs = 2.0 * memory_clock_khz * 1e3 * bus_bits / 8 / 1e9;   // double data rate
  return p;
}

void* allocate(int device, std::size_t bytes) {
  PORTKERN_CUDA_CHECK("portkern::allocate", cudaSetDevice(device));
  void* pointer = nullptr;
  const cudaError_t status = cudaMalloc(&pointer, bytes);
  if (status != cudaSuccess) {
    (void)cudaGetLastError();
    fail("portkern::allocate", "cannot allocate " + std::to_string(bytes) + " bytes on cuda:" +
                                   std::to_string(device) + ": CUDA error '" + cudaGetErrorString(status) + "'");
  }
  return pointer;
}

void deallocate(int device, void* pointer) noexcept {
  if (cudaSetDevice(device) == cudaSuccess) (void)cudaFree(pointer);
}

void* create_stream(int device) {
  PORTKERN_CUDA_CHECK("portkern::Queue", cudaSetDevice(device));
  cudaStream_t stream = nullptr;
  PORTKERN_CUDA_CHECK("portkern::Queue", cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  return stream;
}

void destroy_stream(int device, void* stream) noexcept {
  if (cudaSetDevice(device) == cudaSuccess) (void)cudaStreamDestroy(as_stream(stream));
}

void copy(void* stream, void* dst, const void* src, std::size_t bytes) {
  PORTKERN_CUDA_CHECK("portkern::Queue::copy",
                      cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, as_stream(stream)));
}

void fill(void* stream, void* dst, const void* pattern, std::size_t pattern_bytes, std::size_t count) {
  launch_fill(as_stream(stream), dst, pattern, pattern_bytes, count);
}

void wait(void* stream) { PORTKERN_CUDA_CHECK("portkern::Queue::wait", cudaStreamSynchronize(as_stream(stream))); }

Memory memory_of(const void* pointer, int* device) {
  cudaPointerAttributes attributes{};
  if (cudaPointerGetAttributes(&attributes, pointer) != cudaSuccess) {
    (void)cudaGetLastError();
    *device = -1;
    return Memory::host;
  }
  *device = attributes.device;
  switch (attributes.type) {
    case cudaMemoryTypeDevice: return Memory::device;
    case cudaMemoryTypeManaged: return Memory::managed;
    default: return Memory::host;
  }
}

void* create_event(int device) {
  PORTKERN_CUDA_CHECK("portkern::Timer", cudaSetDevice(device));
  cudaEvent_t event = nullptr;
  PORTKERN_CUDA_CHECK("portkern::Timer", cudaEventCreate(&event));
  return event;
}

void destroy_event(void* event) noexcept { (void)cudaEventDestroy(as_event(event)); }

void record_event(void* event, void* stream) {
  PORTKERN_CUDA_CHECK("portkern::Timer", cudaEventRecord(as_event(event), as_stream(stream)));
}

double elapsed_ms(void* start, void* stop) {
  PORTKERN_CUDA_CHECK("portkern::Timer::elapsed_ms", cudaEventSynchronize(as_event(stop)));
  float ms = 0;
  PORTKERN_CUDA_CHECK("portkern::Timer::elapsed_ms", cudaEventElapsedTime(&ms, as_event(start), as_event(stop)));
  return ms;
}

void* capture_graph(void* stream, const std::function<void()>& work) {
  const char* fn = "portkern::cuda::capture_graph";
  PORTKERN_CUDA_CHECK(fn, cudaStreamBeginCapture(as_stream(stream), cudaStreamCaptureModeRelaxed));
  cudaGraph_t graph = nullptr;
  try {
    work();
  } catch (...) {
    (void)cudaStreamEndCapture(as_stream(stream), &graph);
    if (graph) (void)cudaGraphDestroy(graph);
    (void)cudaGetLastError();
    throw;
  }
  if (cudaStreamEndCapture(as_stream(stream), &graph) != cudaSuccess || !graph) {
    (void)cudaGetLastError();
    return nullptr;
  }
  cudaGraphExec_t exec = nullptr;
  const cudaError_t made = cudaGraphInstantiate(&exec, graph, 0);
  (void)cudaGraphDestroy(graph);
  if (made != cudaSuccess) {
    (void)cudaGetLastError();
    return nullptr;
  }
  return exec;
}

void launch_graph(void* graph, void* stream) {
  PORTKERN_CUDA_CHECK("portkern::cuda::launch_graph",
                      cudaGraphLaunch(static_cast<cudaGraphExec_t>(graph), as_stream(stream)));
}

void destroy_graph(void* graph) noexcept {
  if (graph) (void)cudaGraphExecDestroy(static_cast<cudaGraphExec_t>(graph));
}

}  // namespace portkern::detail::cuda
