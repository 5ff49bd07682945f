// The GEMM registry: every kernel family, once, as an ordered list of entries (oneDNN's implementation
// lists). An entry owns its family's whole configuration space (Triton's rule: the kernel owns its space, a
// deployment under deploy/ only picks from it), says whether a configuration applies to a problem on a device
// and why not, and runs it. The API (src/gemm/api.cpp), `portkern select`/`info`/`tune`, the tests and the docs
// read this list; no other hand-written place lists family names. A family lives in its own folder
// (src/gemm/<family>/: its kernels and entry.cpp, found by src/gemm/CMakeLists.txt; a folder named cuda_* is
// compiled in CUDA builds only); the list is in registry.cpp.
#pragma once

#include <span>
#include <type_traits>
#include <string>
#include <string_view>
#include <vector>

#include "gemm/args.hpp"
#include "portkern/deploy/selector.hpp"
#include "portkern/runtime/queue.hpp"

namespace portkern::gemm_impl {

template <class T>
using FamilyRun = void (*)(Queue& queue, std::string_view config, bool trans_a, bool trans_b, const GemmArgs<T>& args);

struct FamilyEntry {
  std::string_view name;                                  // "tiled": every configuration name starts "tiled/"
  bool (*runs_on)(const Device& device);                  // its back end
  const std::vector<std::string>& (*space)();             // the whole space, stable names, in a fixed order
  std::vector<std::string> (*tuning_part)(const Device&);  // the part `portkern tune` measures on a device by default
  bool (*in_space)(std::string_view config);              // one of space(), without listing it
  // Why `config` (one of the space) cannot run `problem` on a device it runs on; empty when it can. May be null.
  std::string (*why_not)(const Device& device, const deploy::Problem& problem, std::string_view config);
  // The arithmetic `config` computes float products with when called at `precision`; null: IEEE always.
  Arithmetic (*arithmetic)(std::string_view config, Precision precision);
  FamilyRun<float> run_float;
  FamilyRun<double> run_double;
  bool fuses_epilogue;   // whether its runs apply GemmArgs::epilogue (args.hpp); others leave it to the caller

  Arithmetic arithmetic_of(std::string_view config, Precision precision) const {
    return arithmetic ? arithmetic(config, precision) : Arithmetic::ieee;
  }

  template <class T>
  FamilyRun<T> run() const {
    if constexpr (std::is_same_v<T, float>) return run_float;
    else return run_double;
  }
};

// Every family of this build, in the registry's order.
std::span<const FamilyEntry* const> gemm_family_entries();

// The entry called `name`; null if there is none.
const FamilyEntry* find_gemm_family(std::string_view name);

// Why `config` of `family` cannot run `problem` on `device` at `precision` (unknown family, another back end,
// a name outside the family's space — the message lists the valid names —, an arithmetic the precision does
// not allow, or the family's own reason); empty when it can.
std::string gemm_not_applicable(const Device& device, const deploy::Problem& problem, std::string_view family,
                                std::string_view config, Precision precision = Precision::accurate);

// "a, b, c" for up to `shown` names, then "... (N in all)".
std::string listed(std::span<const std::string> names, std::size_t shown = 12);

}  // namespace portkern::gemm_impl
