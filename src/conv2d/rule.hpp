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

}  // namespace portkern::conv2d_impl
