// The runtime's CPU back end: what the CPU is, and what it reaches.
#pragma once

#include <cstddef>

#include "portkern/runtime/device.hpp"

namespace portkern::detail::cpu {

DeviceProperties properties();
Ceilings measure_ceilings();

// `bytes` of host memory (std::free releases it), or nullptr; large blocks on transparent huge pages.
void* allocate_pages(std::size_t bytes);

}  // namespace portkern::detail::cpu
