// Reading the stable configuration names of the kernel families ("tiled/r4a1c4_wg16x16_global"): constexpr,
// so that a deployment's list of names becomes template arguments at compile time, and the call of the
// configuration a name picks among a build's instantiated ones.
#pragma once

#include <cstddef>
#include <iterator>
#include <string_view>
#include <utility>

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

// Calls f.template operator()<I>() for the index I of the entry of `names` (a constexpr array of names: the
// configurations a build instantiates) equal to `name`; false if none is. Each family parses names[I] into its
// kernel's template argument inside f.
template <const auto& names, class F>
bool with_instantiated(std::string_view name, F&& f) {
  return [&]<std::size_t... I>(std::index_sequence<I...>) {
    return ((name == names[I] && (f.template operator()<I>(), true)) || ...);
  }(std::make_index_sequence<std::size(names)>{});
}

}  // namespace portkern::config_names
