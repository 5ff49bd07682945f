// The rule that picks a convolution algorithm and configuration per call (see rule.cpp).
#pragma once

#include "portkern/dnn.hpp"

namespace portkern::conv2d_impl {

// The pick for a completed descriptor at a precision, with the reason (the deployment's decision path, or why
// it fell back).
Conv2dSelection select(const Device& device, const Conv2dDesc& d, Precision precision = Precision::accurate);

// The device class's deployment for a precision, described (conv2d_deployment).
Conv2dDeployment deployment(const Device& device, Precision precision = Precision::accurate);

}  // namespace portkern::conv2d_impl
