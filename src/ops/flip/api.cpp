#include <string>

#include "ops/flip/backends.hpp"
#include "ops/flip/kernel.hpp"
#include "portkern/checked.hpp"
#include "portkern/error.hpp"
#include "portkern/kernel/cpu.hpp"
#include "portkern/ops/flip.hpp"

namespace portkern::ops {

namespace flip_impl {
template <class T>
void portable_cpu(Queue& queue, const Plan& plan, const T* in, T* out) {
  run<kernel::cpu::Backend>(queue, plan, in, out);
}
template void portable_cpu(Queue&, const Plan&, const float*, float*);
template void portable_cpu(Queue&, const Plan&, const double*, double*);
}  // namespace flip_impl

namespace {

template <class T>
void flip_any(Queue& queue, std::span<const std::int64_t> shape, std::span<const int> dims, const T* in, T* out) {
  const char* function = "portkern::ops::flip";
  const int rank = int(shape.size());
  require(rank >= 1 && rank <= flip_impl::Plan::max_rank, function, "shape.size()", rank, "in [1, 8]");
  for (int k = 0; k < rank; ++k)
    require(shape[k] >= 0, function, "shape[" + std::to_string(k) + "]", shape[k], ">= 0");
  const std::int64_t numel = checked_product(shape, function, "the elements (the product of shape)");
  checked_bytes(numel, sizeof(T), function, "in");
  for (std::size_t i = 0; i < dims.size(); ++i) {
    require(dims[i] >= 0 && dims[i] < rank, function, "dims[" + std::to_string(i) + "]", dims[i],
            "in [0, rank = " + std::to_string(rank) + ")");
    for (std::size_t j = 0; j < i; ++j)
      require(dims[j] != dims[i], function, "dims[" + std::to_string(i) + "]", dims[i], "not repeated");
  }
  if (numel == 0) return;
  queue.check_pointer(in, function, "in");
  queue.check_pointer(out, function, "out");
  const flip_impl::Plan plan = flip_impl::make_plan(shape, dims);
  if (queue.device().is_cpu()) return flip_impl::portable_cpu(queue, plan, in, out);
#if PORTKERN_HAVE_CUDA
  flip_impl::portable_cuda(queue, plan, in, out);
#endif
}

}  // namespace

void flip(Queue& queue, std::span<const std::int64_t> shape, std::span<const int> dims, const float* in, float* out) {
  flip_any(queue, shape, dims, in, out);
}
void flip(Queue& queue, std::span<const std::int64_t> shape, std::span<const int> dims, const double* in,
          double* out) {
  flip_any(queue, shape, dims, in, out);
}

}  // namespace portkern::ops
