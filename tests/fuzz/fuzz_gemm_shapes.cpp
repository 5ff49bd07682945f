// Fuzz target: the GEMM shapes CSV (read_gemm_shapes). Any input is either shapes whose operand sizes fit 64
// bits or a portkern::Error; nothing else may happen.
#include <cstdint>
#include <sstream>
#include <string>

#include "bench/shapes.hpp"
#include "portkern/checked.hpp"
#include "portkern/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  try {
    for (const auto& s : portkern::bench::read_gemm_shapes(in, "fuzz.csv")) {
      if (s.m < 1 || s.n < 1 || s.k < 1 || s.batch < 1) __builtin_trap();
      try {   // the reader checked that the operands' bytes fit 64 bits
        portkern::checked_product({s.m, s.k, s.batch, 8}, "fuzz", "A");
        portkern::checked_product({s.k, s.n, s.batch, 8}, "fuzz", "B");
        portkern::checked_product({s.m, s.n, s.batch, 8}, "fuzz", "C");
      } catch (const portkern::Error&) {
        __builtin_trap();
      }
    }
  } catch (const portkern::Error&) {
  }
  return 0;
}
