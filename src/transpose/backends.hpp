// The transpose on each back end: the portable kernel (one source) and its hand-written twins, which exist
// only to show, in `portkern bench transpose`, what the kernel model costs.
#pragma once

#include <cstdint>

#include "portkern/runtime/queue.hpp"

namespace portkern::transpose_backends {

void portable_cpu(Queue& q, std::int64_t rows, std::int64_t cols, const float* in, std::int64_t ld_in, float* out,
                  std::int64_t ld_out);
void portable_cuda(Queue& q, std::int64_t rows, std::int64_t cols, const float* in, std::int64_t ld_in, float* out,
                   std::int64_t ld_out);
// A blocked transpose as a plain OpenMP loop nest.
void native_cpu(Queue& q, std::int64_t rows, std::int64_t cols, const float* in, std::int64_t ld_in, float* out,
                std::int64_t ld_out);
// The classic shared-memory CUDA transpose, written by hand.
void native_cuda(Queue& q, std::int64_t rows, std::int64_t cols, const float* in, std::int64_t ld_in, float* out,
                 std::int64_t ld_out);

}  // namespace portkern::transpose_backends
