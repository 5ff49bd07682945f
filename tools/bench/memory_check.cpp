#include "bench/memory_check.hpp"

#include <unistd.h>

#include <cstdio>

#include "portkern/error.hpp"

namespace portkern::bench {

namespace {
// The machine's physical memory in bytes, or 0 where it cannot be told.
double physical_memory() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  return pages <= 0 || page <= 0 ? 0.0 : double(pages) * double(page);
}
}  // namespace

bool fits_memory(const Device& device, double bytes) {
  const double memory = physical_memory();
  return !device.is_cpu() || memory == 0.0 || bytes <= memory;
}

void check_fits_memory(const Device& device, double bytes, const std::string& function, const std::string& what) {
  if (fits_memory(device, bytes)) return;
  const double memory = physical_memory();
  char text[96];
  std::snprintf(text, sizeof text, " need %.1f GB, the %s has %.1f GB", bytes / 1e9, device.name().c_str(), memory / 1e9);
  fail(function, what + text);
}

}  // namespace portkern::bench
