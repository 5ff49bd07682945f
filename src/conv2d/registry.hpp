// The convolution's registry: every algorithm, once, as an ordered list of entries (oneDNN's implementation
// lists). An entry owns its algorithm's whole configuration space (a deployment under deploy/ only picks from
// it), says which configurations this build instantiates, which one runs when a caller names only the
// algorithm, whether it applies to a descriptor and why not, and runs the call. The API (api.cpp), the rule
// (rule.cpp), `portkern info`/`tune`, the tests and the docs read this list; no other hand-written place lists
// algorithm names. An algorithm lives in its own folder (src/conv2d/<algorithm>/: its kernels, their
// instantiation per back end in kernels.cpp/kernels.cu, and entry.cpp); the list is in registry.cpp.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "conv2d/args.hpp"
#include "portkern/dnn.hpp"

namespace portkern::conv2d_impl {

struct AlgorithmEntry {
  std::string_view name;                                   // "winograd": its configurations are "winograd/..."
  const std::vector<std::string>& (*space)();              // the whole space, stable names, in a fixed order
  const std::vector<std::string>& (*instantiated)(Backend backend);   // the part this build runs there
  std::string (*default_config)(const Device& device);     // what runs when a caller names only the algorithm
  std::string (*why_not)(const Conv2dDesc& desc);          // why it cannot take a completed descriptor; "" if it can
  // Runs configuration `config` (one of instantiated(), applicable to the descriptor `args` came from) at
  // args.precision.
  void (*run)(Queue& queue, std::string_view config, const ConvArgs& args);
  // The arithmetic `config` multiplies with (implicit: its fragments'); null: IEEE FMA, or GEMMs called at the
  // call's precision (im2col, gemm_1x1, winograd), which every precision allows.
  Arithmetic (*arithmetic)(std::string_view config) = nullptr;
};

// Every algorithm, in the registry's order.
std::span<const AlgorithmEntry* const> conv2d_algorithm_entries();

// The entry called `name`; null if there is none.
const AlgorithmEntry* find_conv2d_algorithm(std::string_view name);

// Why `config` of `algorithm` cannot compute the completed descriptor `d` on `device` in this build at
// `precision` (unknown algorithm, a name outside its space or not instantiated for the device — the message
// lists the valid names —, an arithmetic the precision does not allow, or the algorithm's own reason); empty
// when it can.
std::string conv2d_not_applicable(const Device& device, const Conv2dDesc& d, std::string_view algorithm,
                                  std::string_view config, Precision precision = Precision::accurate);

// A function returning the same list of names on every call, for an entry's space() or instantiated().
#define PORTKERN_CONV2D_NAMES(...)                                          \
  []() -> const std::vector<std::string>& {                                \
    static const std::vector<std::string> names{__VA_ARGS__};              \
    return names;                                                          \
  }

// The same for an entry's instantiated(device), the same names on every back end.
#define PORTKERN_CONV2D_BUILT(...)                                                        \
  [](Backend) -> const std::vector<std::string>& {                                       \
    static const std::vector<std::string> names{__VA_ARGS__};                            \
    return names;                                                                        \
  }

}  // namespace portkern::conv2d_impl
