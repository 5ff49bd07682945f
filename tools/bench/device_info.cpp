#include "bench/device_info.hpp"

#include <fstream>

#include "portkern/runtime/device_class.hpp"

namespace portkern::bench {

nlohmann::json describe(const Device& device, bool measure) {
  const DeviceProperties& p = device.properties();
  nlohmann::json j = {{"device", device.name()},
                      {"name", p.name},
                      {"arch", p.arch},
                      {"compute_units", p.compute_units},
                      {"memory_bytes", p.memory_bytes},
                      {"local_memory_bytes", p.local_memory_bytes},
                      {"clock_mhz", p.clock_mhz},
                      {"simd_width_fp32", p.simd_width_fp32},
                      {"features", p.features},
                      {"device_class", std::string(device_class(device).name)},
                      {"peak_gflops_fp32", p.peak_gflops_fp32},
                      {"peak_bandwidth_gbs", p.peak_bandwidth_gbs}};
  if (measure) {
    const Ceilings& c = measure_ceilings(device);
    j["measured"] = {{"gflops_fp32", c.gflops_fp32}, {"gflops_fp64", c.gflops_fp64}, {"copy_gbs", c.copy_gbs}};
  }
  return j;
}

std::string summary(const Device& device) {
  const DeviceProperties& p = device.properties();
  return device.name() + ": " + p.name + " (" + std::to_string(p.compute_units) + " compute units, " + p.arch +
         ", class " + std::string(device_class(device).name) + ")";
}

nlohmann::json host_load() {
  std::ifstream in("/proc/loadavg");
  double avg1 = 0, avg5 = 0, avg15 = 0;
  int runnable = 0;
  char slash = 0;
  if (!(in >> avg1 >> avg5 >> avg15 >> runnable >> slash)) return nullptr;
  return {{"avg1", avg1}, {"runnable", runnable}};
}

}  // namespace portkern::bench
