// The CPU as a device: its name, cores, memory, caches and SIMD width, read from the operating system.
#include <omp.h>
#include <unistd.h>

#include <fstream>
#include <string>

#include "runtime/cpu/cpu_backend.hpp"

namespace portkern::detail::cpu {

namespace {
// The value of the first "<key>\t: value" line of /proc/cpuinfo, or "" where there is none.
std::string cpuinfo(const std::string& key) {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(key, 0) != 0) continue;
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    const auto start = line.find_first_not_of(' ', colon + 1);
    return start == std::string::npos ? "" : line.substr(start);
  }
  return "";
}
}  // namespace

// The SIMD extensions the device classes (runtime/device_class.hpp) and the micro-kernels ask for, the
// architecture's name and the fp32 lanes of its widest vectors.
void simd(DeviceProperties& p) {
#if defined(__x86_64__) || defined(__i386__)
  if (p.name.empty()) p.name = "x86-64 CPU";
  __builtin_cpu_init();
#define PORTKERN_CPU_FEATURE(name) \
  if (__builtin_cpu_supports(name)) p.features += std::string(p.features.empty() ? "" : " ") + name;
  PORTKERN_CPU_FEATURE("sse4.2")
  PORTKERN_CPU_FEATURE("avx")
  PORTKERN_CPU_FEATURE("avx2")
  PORTKERN_CPU_FEATURE("fma")
  PORTKERN_CPU_FEATURE("avx512f")
  PORTKERN_CPU_FEATURE("avx512vl")
  PORTKERN_CPU_FEATURE("avx512dq")
  PORTKERN_CPU_FEATURE("avx512bw")
#undef PORTKERN_CPU_FEATURE
  if (__builtin_cpu_supports("avx512f")) {
    p.arch = "x86-64 avx512";
    p.simd_width_fp32 = 16;
  } else if (__builtin_cpu_supports("avx2")) {
    p.arch = "x86-64 avx2";
    p.simd_width_fp32 = 8;
  } else {
    p.arch = "x86-64 sse";
    p.simd_width_fp32 = 4;
  }
#elif defined(__aarch64__)
  if (p.name.empty()) p.name = "aarch64 CPU";   // /proc/cpuinfo has no model name on most Arm kernels
  p.arch = "aarch64 neon";
  p.simd_width_fp32 = 4;
  p.features = "neon";
#else
  if (p.name.empty()) p.name = "CPU";
  p.arch = "generic";
  p.simd_width_fp32 = 1;
#endif
}

DeviceProperties properties() {
  DeviceProperties p;
  p.name = cpuinfo("model name");
  p.compute_units = omp_get_max_threads();
  p.memory_bytes = std::uint64_t(sysconf(_SC_PHYS_PAGES)) * std::uint64_t(sysconf(_SC_PAGESIZE));
  const long l1 = sysconf(_SC_LEVEL1_DCACHE_SIZE);
  p.local_memory_bytes = l1 > 0 ? std::uint64_t(l1) : 32768;
  const std::string mhz = cpuinfo("cpu MHz");
  p.clock_mhz = mhz.empty() ? 0 : std::stod(mhz);
  simd(p);
  // The clock under vector load and the number of FMA pipes are not visible from here: no theoretical
  // peak; measure_ceilings() gives the measured one.
  return p;
}

}  // namespace portkern::detail::cpu
