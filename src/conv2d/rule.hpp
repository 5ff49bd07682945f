// The rule that picks a convolution algorithm and configuration per call (through the generated deployment,
// see rule.cpp), and what each algorithm accepts.
#pragma once

#include <string>

#include "portkern/dnn.hpp"

namespace portkern::conv2d_impl {

bool known_algorithm(const std::string& algorithm);

// Whether `algorithm` applies to a (completed) descriptor; `why` gets the reason when it does not.
bool applies(const std::string& algorithm, const Conv2dDesc& d, std::string* why);

Conv2dSelection select(const Device& device, const Conv2dDesc& d);

// The configuration an algorithm runs when the caller names only the algorithm (and the im2col fallback):
// im2col chunked on the CPU and whole on a GPU, tiled/t2x4_c4_k4, winograd/f4, else "<algorithm>/default".
std::string default_config(const Device& device, const std::string& algorithm);

}  // namespace portkern::conv2d_impl
