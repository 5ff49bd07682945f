// Whether benchmark operands fit the machine before they are allocated: m = n = k = 200000 is an error naming
// the bytes asked and the memory there is, not an out-of-memory abort or a machine driven into swap. (Their
// sizes are first formed with portkern/checked.hpp, so they cannot wrap.)
#pragma once

#include <string>

#include "portkern/runtime/device.hpp"

namespace portkern::bench {

// Error unless `bytes` fit in the memory of `device` (on the CPU: the machine's physical memory; a GPU
// reports what it cannot allocate itself): "<function>: <what> need 480.0 GB, the cpu has 16.0 GB".
void check_fits_memory(const Device& device, double bytes, const std::string& function, const std::string& what);

// Whether `bytes` fit in the memory of `device` (always true for a GPU, whose own allocation reports it).
bool fits_memory(const Device& device, double bytes);

}  // namespace portkern::bench
