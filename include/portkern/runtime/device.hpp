// Devices: the CPU (all its cores, through OpenMP) and each CUDA GPU, named "cpu" and "cuda:N".
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace portkern {

enum class Backend { cpu, cuda };

struct DeviceProperties {
  std::string name;                  // "AMD EPYC 9R14", "NVIDIA H100 80GB HBM3"
  std::string arch;                  // "x86-64 avx512", "sm_90"
  int compute_units = 0;             // CPU cores (OpenMP threads) or streaming multiprocessors
  std::uint64_t memory_bytes = 0;    // physical memory of the device
  std::uint64_t local_memory_bytes = 0;  // per group: shared memory per block / the L1 data cache per core
  double clock_mhz = 0;              // 0 where unknown
  int simd_width_fp32 = 0;           // fp32 lanes of one vector instruction (CPU) or 32 (a warp)
  std::string features;              // CPU: the ISA extensions CPUID reports that portkern's code uses,
                                     // e.g. "sse4.2 avx avx2 fma avx512f avx512vl avx512dq avx512bw"; GPU: ""
  // Theoretical peaks where they can be known from the properties (0 where unknown); measured ceilings come
  // from measure_ceilings().
  double peak_gflops_fp32 = 0;
  double peak_bandwidth_gbs = 0;
};

// What the device reaches on its own: an FMA loop (GFLOP/s) and a large copy (GB/s, bytes read + written).
struct Ceilings {
  double gflops_fp32 = 0;
  double gflops_fp64 = 0;
  double copy_gbs = 0;
};

class Device {
 public:
  static Device cpu() { return Device(Backend::cpu, 0); }
  static Device cuda(int index);                 // checks that the GPU exists
  static Device parse(std::string_view name);    // "cpu", "cuda", "cuda:N"

  Backend backend() const { return backend_; }
  int index() const { return index_; }
  bool is_cpu() const { return backend_ == Backend::cpu; }
  bool is_cuda() const { return backend_ == Backend::cuda; }
  std::string name() const;                      // "cpu", "cuda:0"
  const DeviceProperties& properties() const;    // read once, then cached
  bool operator==(const Device&) const = default;

 private:
  Device(Backend backend, int index) : backend_(backend), index_(index) {}
  Backend backend_;
  int index_;
};

// Every device present: the CPU first, then each CUDA GPU (none when the CUDA back end is not built or no
// GPU is there).
std::vector<Device> devices();
int cuda_device_count();   // 0 without the CUDA back end or without a GPU

// Runs short micro-benchmarks (a fraction of a second) to measure the device's ceilings; cached per device.
const Ceilings& measure_ceilings(const Device& device);

}  // namespace portkern
