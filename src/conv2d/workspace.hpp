// Scratch memory of the GEMM-based convolutions (im2col patches, Winograd's transformed tiles), kept per
// queue and grown on demand, so that repeated calls neither allocate nor touch fresh pages. The memory lives
// until the program ends; calls on one queue are in order, so reusing it between them is safe.
#pragma once

#include <cstdint>

#include "portkern/runtime/queue.hpp"

namespace portkern::conv2d_impl {

// At least `count` floats of the queue's device memory, valid until the next call with this queue.
float* workspace(const Queue& queue, std::int64_t count);

}  // namespace portkern::conv2d_impl
