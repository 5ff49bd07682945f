// Fuzz target: configuration and family names forced through the API (GemmChoice, Conv2dChoice) on a tiny
// problem: a known name runs and computes the right product, any other is a portkern::Error.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstdint>
#include <string>
#include <vector>

#include "portkern/blas.hpp"
#include "portkern/dnn.hpp"
#include "portkern/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  const std::string family = in.ConsumeRandomLengthString(40), config = in.ConsumeRandomLengthString(60);
  static portkern::Queue queue(portkern::Device::cpu(), 1);
  std::vector<float> a(6, 1.f), b(6, 1.f), c(4, -1.f);
  try {
    portkern::gemm<float>(queue, portkern::Op::none, portkern::Op::none, 2, 2, 3, 1.f, a.data(), 2, b.data(), 3, 0.f,
                          c.data(), 2, {family, config});
    for (const float x : c)
      if (x != 3.f) __builtin_trap();   // a name that runs computes the product
  } catch (const portkern::Error&) {
  }
  portkern::Conv2dDesc d;
  d.in_h = d.in_w = 5, d.in_c = 2, d.out_c = 3, d.window_h = d.window_w = 3;
  std::vector<float> input(50, 1.f), filter(54, 1.f), output(27, -1.f);
  try {
    portkern::conv2d(queue, d, input.data(), filter.data(), output.data(), {family, config});
    for (const float x : output)
      if (x != 18.f) __builtin_trap();
  } catch (const portkern::Error&) {
  }
  return 0;
}
