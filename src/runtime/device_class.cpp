// The device-class table and the run-time choice through it (see portkern/runtime/device_class.hpp).
#include "portkern/runtime/device_class.hpp"

#include <array>
#include <atomic>
#include <cstdlib>
#include <mutex>

#include "portkern/error.hpp"

namespace portkern {

namespace {

// Does the space-separated list `features` hold every word of `wanted`?
bool has_all(const std::string& features, std::string_view wanted) {
  const std::string padded = " " + features + " ";
  while (!wanted.empty()) {
    const auto end = wanted.find(' ');
    const std::string_view word = wanted.substr(0, end);
    if (!word.empty() && padded.find(" " + std::string(word) + " ") == std::string::npos) return false;
    if (end == std::string_view::npos) break;
    wanted.remove_prefix(end + 1);
  }
  return true;
}

constexpr std::string_view avx512_features = "avx2 fma avx512f avx512vl avx512dq avx512bw";
constexpr std::string_view avx2_features = "avx2 fma";

const std::array<DeviceClass, 5> table = {{
    {"cpu-avx512", Backend::cpu, "CPUID avx2 fma avx512f avx512vl avx512dq avx512bw",
     [](const DeviceProperties& p) { return has_all(p.features, avx512_features); }, CpuIsa::avx512},
    {"cpu-avx2", Backend::cpu, "CPUID avx2 fma",
     [](const DeviceProperties& p) { return has_all(p.features, avx2_features); }, CpuIsa::avx2},
    {"cpu-generic", Backend::cpu, "any CPU", [](const DeviceProperties&) { return true; }, CpuIsa::generic},
    {"cuda-sm90", Backend::cuda, "compute capability 9.0",
     [](const DeviceProperties& p) { return p.arch == "sm_90"; }, CpuIsa::generic},
    // Its configurations need no more than every CUDA GPU has (48 KiB of static shared memory per block).
    {"cuda-generic", Backend::cuda, "any CUDA GPU", [](const DeviceProperties&) { return true; }, CpuIsa::generic},
}};

std::string class_names(Backend backend) {
  std::string names;
  for (const auto& c : table)
    if (c.backend == backend) names += (names.empty() ? "" : ", ") + std::string(c.name);
  return names;
}

const char* environment_variable(Backend backend) {
  return backend == Backend::cpu ? "PORTKERN_CPU_CLASS" : "PORTKERN_CUDA_CLASS";
}

// A class forced on one back end: by force_device_class(), or else by the environment at the first choice.
struct Forced {
  std::atomic<const DeviceClass*> cls{nullptr};
  std::once_flag environment_read;
};
Forced forced[2];
Forced& forced_on(Backend backend) { return forced[backend == Backend::cpu ? 0 : 1]; }

const DeviceClass& checked_class(Backend backend, std::string_view name, const char* what) {
  const DeviceClass* found = nullptr;
  for (const auto& c : table)
    if (c.name == name) found = &c;
  require(found && found->backend == backend, "portkern::force_device_class", what, std::string(name),
          "a " + std::string(backend == Backend::cpu ? "CPU" : "CUDA") + " device class (one of " +
              class_names(backend) + ")");
  if (backend == Backend::cpu && !found->runs_on(Device::cpu().properties()))
    fail("portkern::force_device_class", std::string(what) + " = " + std::string(name) + ": this CPU cannot execute it (" +
                                             std::string(found->needs) + "; the CPU has " +
                                             Device::cpu().properties().features + ")");
  return *found;
}

const DeviceClass* forced_class(Backend backend) {
  Forced& f = forced_on(backend);
  std::call_once(f.environment_read, [&] {
    const char* name = environment_variable(backend);
    const char* value = std::getenv(name);
    if (value && *value) f.cls.store(&checked_class(backend, value, name));
  });
  return f.cls.load();
}

const DeviceClass& chosen_by_properties(const DeviceProperties& p, Backend backend) {
  for (const auto& c : table)
    if (c.backend == backend && c.runs_on(p)) return c;
  fail("portkern::device_class", "no device class matches " + p.name);   // the generic classes match any device
}

}  // namespace

std::string_view cpu_isa_name(CpuIsa isa) {
  switch (isa) {
    case CpuIsa::avx512: return "avx512";
    case CpuIsa::avx2: return "avx2";
    case CpuIsa::generic: break;
  }
  return "generic";
}

std::span<const DeviceClass> device_classes() { return table; }

const DeviceClass& find_device_class(std::string_view name) {
  for (const auto& c : table)
    if (c.name == name) return c;
  require(false, "portkern::find_device_class", "name", std::string(name),
          "a device class (one of " + class_names(Backend::cpu) + ", " + class_names(Backend::cuda) + ")");
  return table[0];
}

const DeviceClass& device_class(const Device& device) {
  if (const DeviceClass* f = forced_class(device.backend())) {
    if (!device.is_cpu() && !f->runs_on(device.properties()))
      fail("portkern::device_class", "the forced class " + std::string(f->name) + " needs " + std::string(f->needs) +
                                         ", which " + device.name() + " (" + device.properties().arch + ") is not");
    return *f;
  }
  if (device.is_cpu()) {
    static const DeviceClass& cpu = chosen_by_properties(device.properties(), Backend::cpu);
    return cpu;
  }
  return chosen_by_properties(device.properties(), device.backend());
}

void force_device_class(Backend backend, std::string_view name) {
  Forced& f = forced_on(backend);
  std::call_once(f.environment_read, [] {});   // an explicit choice overrides the environment's
  f.cls.store(name.empty() ? nullptr : &checked_class(backend, name, "device_class"));
}

CpuIsa active_cpu_isa() { return device_class(Device::cpu()).cpu_isa; }

}  // namespace portkern
