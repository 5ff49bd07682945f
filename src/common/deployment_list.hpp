// The deployments of one operation, one per device class (deploy/<class>/<op>.hpp), looked up by the class
// chosen at run time (portkern/runtime/device_class.hpp), and the union of their configuration lists, which is
// what the library instantiates.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>

#include "portkern/error.hpp"

namespace portkern::detail {

template <class... Deployment>
struct DeploymentList {
  static constexpr std::array<std::string_view, sizeof...(Deployment)> classes = {Deployment::device_class...};

  // f.template operator()<D>() for the deployment D of `device_class`; an Error naming it when there is none.
  template <class F>
  static auto with(std::string_view device_class, F&& f) {
    using Result = decltype(f.template operator()<std::tuple_element_t<0, std::tuple<Deployment...>>>());
    std::optional<Result> result;
    ((!result && Deployment::device_class == device_class ? (result.emplace(f.template operator()<Deployment>()), true)
                                                          : false),
     ...);
    if (!result) {
      std::string known;
      for (std::string_view c : classes) known += (known.empty() ? "" : ", ") + std::string(c);
      fail("portkern::deployment", "device class '" + std::string(device_class) + "' has no deployment (one of " +
                                       known + ")");
    }
    return std::move(*result);
  }
};

// The distinct names of several lists, in order of first appearance: union_of<a, b, c>().
template <const auto&... lists>
constexpr auto distinct_names() {   // {names padded to the total size, how many there are}
  std::array<std::string_view, (lists.size() + ...)> all{};
  std::size_t n = 0;
  auto add = [&](const auto& list) {
    for (std::string_view name : list) {
      bool seen = false;
      for (std::size_t i = 0; i < n; ++i) seen = seen || all[i] == name;
      if (!seen) all[n++] = name;
    }
  };
  (add(lists), ...);
  return std::pair{all, n};
}

template <const auto&... lists>
constexpr auto union_of() {
  constexpr auto distinct = distinct_names<lists...>();
  std::array<std::string_view, distinct.second> names{};
  for (std::size_t i = 0; i < names.size(); ++i) names[i] = distinct.first[i];
  return names;
}

}  // namespace portkern::detail
