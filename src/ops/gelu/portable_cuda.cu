#include "ops/gelu/backends.hpp"
#include "ops/gelu/kernel.hpp"
#include "portkern/kernel/cuda.cuh"

namespace portkern::ops::gelu_impl {

void portable_cuda(Queue& queue, std::int64_t rows, std::int64_t hidden, half* src, const half* bias) {
  run<kernel::cuda::Backend>(queue, rows, hidden, src, bias);
}

}  // namespace portkern::ops::gelu_impl
