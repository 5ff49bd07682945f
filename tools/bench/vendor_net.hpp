// The whole networks' vendor back end (`portkern run --gemm vendor`, `portkern report`): the network's engine
// (portkern/net.hpp) on the vendor's fp32 primitives — oneDNN's or cuDNN's fastest in-place convolution,
// oneDNN / OpenBLAS or cuBLAS for the linear layers — with our bias / residual / ReLU pass after each
// vendor convolution.
#pragma once

#include "portkern/net.hpp"

namespace portkern::bench {

// An Error when the build has no vendor convolution for the device.
net::Engine vendor_net_engine(const Device& device, int threads);

}  // namespace portkern::bench
