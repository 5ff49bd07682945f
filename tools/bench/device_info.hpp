// A device described for people (one line) and for programs (JSON), shared by `info`, `bench` and `report`.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "portkern/runtime/device.hpp"

namespace portkern::bench {

// Properties, and the measured ceilings when `measure` is set (a fraction of a second per device).
nlohmann::json describe(const Device& device, bool measure);
std::string summary(const Device& device);   // "cpu: AMD EPYC (2 units, avx512)"

// The host's load from /proc/loadavg ({"avg1": 1-minute average, "runnable": threads running now}; null
// where there is no such file), recorded before and after a benchmark: on a 2-core machine another busy
// process stalls every OpenMP barrier, and a reader should see whether one was there.
nlohmann::json host_load();

}  // namespace portkern::bench
