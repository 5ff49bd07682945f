// Device classes: the table that says which deployment (deploy/<class>/<op>.hpp) a device uses, chosen at run
// time from the device's properties (CPUID features on the CPU, the compute capability on a GPU), so that one
// library serves every CPU it can run on and an unknown GPU gets a deployment instead of an error.
//
// The table (device_classes()), most specific class first on each back end; the first whose predicate holds
// is chosen:
//   cpu-avx512    AVX-512 F/VL/DQ/BW      the AVX-512 micro-kernels
//   cpu-avx2      AVX2 and FMA            the AVX2 micro-kernels
//   cpu-generic   any CPU                 the plain C++ micro-kernels
//   cuda-sm90     compute capability 9.0  (H100, H200)
//   cuda-generic  any CUDA GPU            a deployment that needs only what every GPU has
// A class can be forced, for tests and measurements, through force_device_class() or the environment
// variables PORTKERN_CPU_CLASS / PORTKERN_CUDA_CLASS (read at the first choice); forcing a class the device
// cannot execute is an Error naming it.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "portkern/runtime/device.hpp"

namespace portkern {

// The instruction sets the CPU's micro-kernels are written for (portkern/kernel/cpu/microkernel.hpp).
enum class CpuIsa { generic, avx2, avx512 };
std::string_view cpu_isa_name(CpuIsa isa);   // "generic", "avx2", "avx512"

struct DeviceClass {
  std::string_view name;                        // "cpu-avx2": its deployments are deploy/<name>/<op>.hpp
  Backend backend;
  std::string_view needs;                       // the predicate in words, e.g. "CPUID avx2 fma"
  bool (*runs_on)(const DeviceProperties&);     // the predicate: can the device execute this class's code?
  CpuIsa cpu_isa;                               // CPU classes: the micro-kernels of the packed GEMM
};

// Every class of this build, most specific first on each back end.
std::span<const DeviceClass> device_classes();

// The class `name` ("cpu-avx2"); an Error listing the classes when there is none.
const DeviceClass& find_device_class(std::string_view name);

// The class `device` uses: the forced one if any, else the first whose predicate its properties satisfy.
const DeviceClass& device_class(const Device& device);

// Forces the class of every device of `backend` ("" returns to the choice by properties). A class of another
// back end, or a CPU class this CPU cannot execute, is an Error naming it. Not meant to race with calls
// running on that back end: tests and tools set it between calls.
void force_device_class(Backend backend, std::string_view name);

// The micro-kernels the CPU's packed GEMM uses: those of the CPU's class.
CpuIsa active_cpu_isa();

}  // namespace portkern
