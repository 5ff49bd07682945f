#include "ops/dwconv/backends.hpp"
#include "ops/dwconv/kernel.hpp"
#include "portkern/kernel/cuda.cuh"

namespace portkern::ops::dwconv_impl {

void portable_cuda(Queue& queue, const DwconvShape& s, const float* in, const float* weight, const float* bias,
                   float* out) {
  run<kernel::cuda::Backend>(queue, s, in, weight, bias, out);
}

}  // namespace portkern::ops::dwconv_impl
