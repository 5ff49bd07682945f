// Products of user-given sizes without overflow: the element and byte counts of benchmark operands, checked
// before anything is allocated (m = k = 2^32 must not wrap to 0), and the check that they fit the machine.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>

#include "portkern/runtime/device.hpp"

namespace portkern::bench {

// The product of `factors` (all >= 0), or nothing when it exceeds INT64_MAX.
std::optional<std::int64_t> checked_product(std::initializer_list<std::int64_t> factors);

// The product of `factors`; Error("<function>: <what> = a*b*... does not fit 64 bits") when it overflows.
std::int64_t product_or_fail(std::initializer_list<std::int64_t> factors, const std::string& function,
                             const std::string& what);

// Error unless `bytes` fit in the memory of `device` (on the CPU: the machine's physical memory; a GPU
// reports what it cannot allocate itself): "<function>: <what> need 480.0 GB, the cpu has 16.0 GB".
void check_fits_memory(const Device& device, double bytes, const std::string& function, const std::string& what);

}  // namespace portkern::bench
