// Hand-written deployment (until `portkern tune gemm --device cpu --deploy` runs on an AVX2 machine, or with
// PORTKERN_CPU_CLASS=cpu-avx2 on an AVX-512 one): the configurations the library instantiates for the device
// class cpu-avx2 (CPUs with AVX2 and FMA), and the rule that picks one per call. On this class cpu_packed/default
// runs the AVX2 micro-kernels (src/gemm/cpu_packed/microkernel_avx2.cpp) with their own block sizes, derived
// rather than tuned (stated there).
#pragma once

#include <array>
#include <cmath>
#include <span>
#include <string_view>

#include "portkern/deploy/selector.hpp"

namespace portkern::deploy::cpu_avx2 {

struct gemm {
  static constexpr std::string_view device_class = "cpu-avx2";
  static constexpr std::array<std::string_view, 2> families = {"cpu_packed", "tiled"};
  static constexpr std::array<std::string_view, 1> cpu_packed = {"cpu_packed/default"};
  static constexpr std::array<std::string_view, 3> tiled = {
      "tiled/r8a1c4_wg16x8_global", "tiled/r4a4c4_wg16x16_local_k16_v1", "tiled/r1a8c8_wg16x16_global"};

  // The packed SIMD family is the CPU's fast path for every shape.
  static int select_family(const Problem&, Path* = nullptr) { return 0; }
  static int select_cpu_packed(const Problem&, Path* = nullptr) { return 0; }
  static int select_tiled(const Problem& p, Path* path = nullptr) {
    const double log2_n = std::log2(double(p.n));
    if (le(path, "log2_n", log2_n, 3.0)) return 2;
    return 0;
  }
  // As a generated header: the configurations of `family` (empty when it is not deployed), and its pick.
  static std::span<const std::string_view> configs_of(std::string_view family) {
    if (family == "cpu_packed") return cpu_packed;
    if (family == "tiled") return tiled;
    return {};
  }
  static int select_in(std::string_view family, const Problem& p, Path* path = nullptr) {
    if (family == "cpu_packed") return select_cpu_packed(p, path);
    if (family == "tiled") return select_tiled(p, path);
    return 0;
  }
};

}  // namespace portkern::deploy::cpu_avx2
