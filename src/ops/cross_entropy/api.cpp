#include <cstdint>

#include "ops/cross_entropy/backends.hpp"
#include "ops/cross_entropy/kernel.hpp"
#include "portkern/checked.hpp"
#include "portkern/error.hpp"
#include "portkern/kernel/cpu.hpp"
#include "portkern/ops/cross_entropy.hpp"

namespace portkern::ops {

namespace cross_entropy_impl {
template <class T>
void portable_cpu(Queue& queue, const Args<T>& args) {
  run<kernel::cpu::Backend>(queue, args);
}
template void portable_cpu(Queue&, const Args<half>&);
template void portable_cpu(Queue&, const Args<float>&);
template void portable_cpu(Queue&, const Args<double>&);
}  // namespace cross_entropy_impl

namespace {

template <class T>
void backward_any(Queue& queue, std::int64_t batch, std::int64_t classes, std::int64_t positions, const T* log_probs,
                  const std::int64_t* target, const T* weight, const T* grad_out, const T* grad_out_neg,
                  const std::int64_t* mask, T* grad) {
  const char* function = "portkern::ops::cross_entropy_backward";
  require(batch >= 0, function, "batch", batch, ">= 0");
  require(classes >= 0 && classes < (std::int64_t(1) << 31), function, "classes", classes, "in [0, 2^31)");
  require(positions >= 0, function, "positions", positions, ">= 0");
  checked_elements<T>({batch, classes, positions}, function, "log_probs (batch * classes * positions)");
  if (batch == 0 || classes == 0 || positions == 0) return;
  queue.check_pointer(log_probs, function, "log_probs");
  queue.check_pointer(target, function, "target");
  queue.check_pointer(weight, function, "weight");
  queue.check_pointer(grad_out, function, "grad_out");
  queue.check_pointer(grad_out_neg, function, "grad_out_neg");
  queue.check_pointer(mask, function, "mask");
  queue.check_pointer(grad, function, "grad");
  cross_entropy_impl::Args<T> a;
  a.batch = batch, a.classes = classes, a.positions = positions, a.log_probs = log_probs, a.target = target;
  a.weight = weight, a.grad_out = grad_out, a.grad_out_neg = grad_out_neg, a.mask = mask, a.grad = grad;
  a.width = cross_entropy_impl::choose_width<T>(positions, log_probs, grad);
  if (queue.device().is_cpu()) return cross_entropy_impl::portable_cpu(queue, a);
#if PORTKERN_HAVE_CUDA
  cross_entropy_impl::portable_cuda(queue, a);
#endif
}

}  // namespace

void cross_entropy_backward(Queue& queue, std::int64_t batch, std::int64_t classes, std::int64_t positions,
                            const half* log_probs, const std::int64_t* target, const half* weight,
                            const half* grad_out, const half* grad_out_neg, const std::int64_t* mask, half* grad) {
  backward_any(queue, batch, classes, positions, log_probs, target, weight, grad_out, grad_out_neg, mask, grad);
}
void cross_entropy_backward(Queue& queue, std::int64_t batch, std::int64_t classes, std::int64_t positions,
                            const float* log_probs, const std::int64_t* target, const float* weight,
                            const float* grad_out, const float* grad_out_neg, const std::int64_t* mask, float* grad) {
  backward_any(queue, batch, classes, positions, log_probs, target, weight, grad_out, grad_out_neg, mask, grad);
}
void cross_entropy_backward(Queue& queue, std::int64_t batch, std::int64_t classes, std::int64_t positions,
                            const double* log_probs, const std::int64_t* target, const double* weight,
                            const double* grad_out, const double* grad_out_neg, const std::int64_t* mask,
                            double* grad) {
  backward_any(queue, batch, classes, positions, log_probs, target, weight, grad_out, grad_out_neg, mask, grad);
}

}  // namespace portkern::ops
