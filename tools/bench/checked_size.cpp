#include "bench/checked_size.hpp"

#include <unistd.h>

#include <cstdio>

#include "portkern/error.hpp"

namespace portkern::bench {

std::optional<std::int64_t> checked_product(std::initializer_list<std::int64_t> factors) {
  std::int64_t product = 1;
  for (const std::int64_t f : factors)
    if (f < 0 || __builtin_mul_overflow(product, f, &product)) return std::nullopt;
  return product;
}

std::int64_t product_or_fail(std::initializer_list<std::int64_t> factors, const std::string& function,
                             const std::string& what) {
  if (const auto p = checked_product(factors)) return *p;
  std::string text;
  for (const std::int64_t f : factors) {
    if (!text.empty()) text += '*';
    text += std::to_string(f);
  }
  fail(function, what + " = " + text + " does not fit 64 bits");
}

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
