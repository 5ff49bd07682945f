// The deployments of one operation, one per device class (deploy/<class>/<op>.hpp) and, where a class's
// deployment for the default precision computes with an arithmetic another precision does not allow or misses
// one it would (tensor cores), one per class and precision (deploy/<class>/<op>_<precision>.hpp, a struct
// naming its `precision`); looked up by the class chosen at run time (portkern/runtime/device_class.hpp); and
// the union of their configuration lists, which is what the library instantiates.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>

#include "portkern/error.hpp"
#include "portkern/precision.hpp"

namespace portkern::detail {

// The precision a deployment is for: its `precision`, or the default one.
template <class D>
constexpr Precision precision_of() {
  if constexpr (requires { D::precision; }) return D::precision;
  else return Precision::accurate;
}

template <class... Deployment>
struct DeploymentList {
  // f.template operator()<D>() for the deployment D of `device_class` for `precision`: the class's own for it
  // where it has one, else its default one (whose picks the caller checks against the precision); an Error
  // naming the class when it has none.
  template <class F>
  static auto with(std::string_view device_class, Precision precision, F&& f) {
    const bool own = ((Deployment::device_class == device_class && precision_of<Deployment>() == precision) || ...);
    const Precision used = own ? precision : Precision::accurate;
    using Result = decltype(f.template operator()<std::tuple_element_t<0, std::tuple<Deployment...>>>());
    std::optional<Result> result;
    ((!result && Deployment::device_class == device_class && precision_of<Deployment>() == used
          ? (result.emplace(f.template operator()<Deployment>()), true)
          : false),
     ...);
    if (!result) {
      std::string known;
      auto add = [&known](std::string_view device_class, Precision precision) {
        if (precision == Precision::accurate) known += (known.empty() ? "" : ", ") + std::string(device_class);
      };
      (add(Deployment::device_class, precision_of<Deployment>()), ...);
      fail("portkern::deployment", "device class '" + std::string(device_class) + "' has no deployment (one of " +
                                       known + ")");
    }
    return std::move(*result);
  }

  // The same for the default precision.
  template <class F>
  static auto with(std::string_view device_class, F&& f) {
    return with(device_class, Precision::accurate, std::forward<F>(f));
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
