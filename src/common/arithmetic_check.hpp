// The registries' precision check (GEMM's and conv2d's): why a configuration that computes with `arithmetic`
// cannot run at `precision` (portkern/precision.hpp), or empty when it can.
#pragma once

#include <string>
#include <string_view>

#include "portkern/precision.hpp"

namespace portkern::detail {

inline std::string arithmetic_not_allowed(std::string_view config, Arithmetic arithmetic, Precision precision) {
  if (allows(precision, arithmetic)) return "";
  return "configuration '" + std::string(config) + "' computes with " + std::string(name(arithmetic)) +
         " arithmetic, which precision '" + std::string(name(precision)) + "' does not allow";
}

}  // namespace portkern::detail
