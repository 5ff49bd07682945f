#include "bench/memory_check.hpp"

#include <unistd.h>

#include <cstdio>

#include "portkern/error.hpp"

namespace portkern::bench {

void check_fits_memory(const Device& device, double bytes, const std::string& function, const std::string& what) {
  if (!device.is_cpu()) return;
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page <= 0) return;
  const double memory = double(pages) * double(page);
  if (bytes <= memory) return;
  char text[96];
  std::snprintf(text, sizeof text, " need %.1f GB, the %s has %.1f GB", bytes / 1e9, device.name().c_str(), memory / 1e9);
  fail(function, what + text);
}

}  // namespace portkern::bench
