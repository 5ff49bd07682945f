// The whole networks' vendor back end (`portkern run --gemm vendor`, `portkern report`): the network's engine
// (portkern/net.hpp) on the vendor's fp32 primitives — oneDNN's or cuDNN's fastest in-place convolution,
// oneDNN / OpenBLAS or cuBLAS for the linear layers — with our bias / residual / ReLU pass after each
// vendor convolution. At the tf32 precision, the vendor's TF32 calls where it has them (cuDNN's and
// cuBLAS's tensor-op math, as PyTorch's allow_tf32), its fp32 ones elsewhere.
#pragma once

#include "portkern/net.hpp"

namespace portkern::bench {

// An Error when the build has no vendor convolution for the device.
net::Engine vendor_net_engine(const Device& device, int threads, Precision precision = Precision::accurate);

}  // namespace portkern::bench
