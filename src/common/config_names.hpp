// Reading the stable configuration names of the kernel families ("tiled/r4a1c4_wg16x16_global"): constexpr,
// so that a deployment's list of names becomes template arguments at compile time.
#pragma once

#include <string_view>

namespace portkern::config_names {

// Consumes `literal` from the front of `s`; false (and `s` unchanged) if it is not there.
constexpr bool parse_literal(std::string_view& s, std::string_view literal) {
  if (!s.starts_with(literal)) return false;
  s.remove_prefix(literal.size());
  return true;
}

// Consumes a decimal number from the front of `s`; false if there is none or it exceeds 1e6 (no parameter of
// any family comes near; the bound keeps the arithmetic far from int overflow on any input).
constexpr bool parse_int(std::string_view& s, int& value) {
  constexpr int largest = 1000000;
  if (s.empty() || s[0] < '0' || s[0] > '9') return false;
  value = 0;
  while (!s.empty() && s[0] >= '0' && s[0] <= '9') {
    if (value > largest) return false;
    value = value * 10 + (s[0] - '0');
    s.remove_prefix(1);
  }
  return value <= largest;
}

}  // namespace portkern::config_names
