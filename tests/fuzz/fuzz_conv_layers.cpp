// Fuzz target: the conv shapes CSV (read_conv_layers). Any input is either layers whose descriptors
// conv2d_complete accepts at batch 1 and 64, or a portkern::Error.
#include <cstdint>
#include <sstream>
#include <string>

#include "bench/conv_layers.hpp"
#include "portkern/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  std::vector<portkern::bench::ConvLayer> layers;
  try {
    layers = portkern::bench::read_conv_layers(in, "fuzz.csv");
  } catch (const portkern::Error&) {
    return 0;
  }
  for (const auto& layer : layers) {
    portkern::conv2d_complete(portkern::bench::layer_desc(layer, 1));   // must not throw: the reader checked it
    (void)portkern::bench::layer_label(layer);
    try {
      portkern::conv2d_complete(portkern::bench::layer_desc(layer, 64));
    } catch (const portkern::Error&) {
    }
  }
  return 0;
}
