// The runtime's CPU back end: what the CPU is, and what it reaches.
#pragma once

#include <cstddef>

#include "portkern/runtime/device.hpp"

namespace portkern::detail::cpu {

DeviceProperties properties();
Ceilings measure_ceilings();

}  // namespace portkern::detail::cpu
