// The rule that picks a convolution algorithm and configuration per call (see rule.cpp).
#pragma once

#include "portkern/dnn.hpp"

namespace portkern::conv2d_impl {

// The pick for a completed descriptor, with the reason (the deployment's decision path, or why it fell back).
Conv2dSelection select(const Device& device, const Conv2dDesc& d);

// The device class's deployment, described (conv2d_deployment).
Conv2dDeployment deployment(const Device& device);

}  // namespace portkern::conv2d_impl
