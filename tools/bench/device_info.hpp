// A device described for people (one line) and for programs (JSON), shared by `info`, `bench` and `report`.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "portkern/runtime/device.hpp"

namespace portkern::bench {

// Properties, and the measured ceilings when `measure` is set (a fraction of a second per device).
nlohmann::json describe(const Device& device, bool measure);
std::string summary(const Device& device);   // "cpu: AMD EPYC (2 units, avx512)"

}  // namespace portkern::bench
