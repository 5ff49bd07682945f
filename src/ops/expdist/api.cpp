#include "ops/expdist/backends.hpp"
#include "ops/expdist/kernel.hpp"
#include "portkern/checked.hpp"
#include "portkern/error.hpp"
#include "portkern/kernel/cpu.hpp"
#include "portkern/ops/expdist.hpp"

namespace portkern::ops {

namespace expdist_impl {
template <class T>
void portable_cpu(Queue& queue, std::int64_t m, std::int64_t n, const T* a, const T* b, const T* sigma_a,
                  const T* sigma_b, T* cost, T* workspace) {
  run<kernel::cpu::Backend>(queue, m, n, a, b, sigma_a, sigma_b, cost, workspace);
}
template void portable_cpu(Queue&, std::int64_t, std::int64_t, const float*, const float*, const float*, const float*,
                           float*, float*);
template void portable_cpu(Queue&, std::int64_t, std::int64_t, const double*, const double*, const double*,
                           const double*, double*, double*);
}  // namespace expdist_impl

namespace {

template <class T>
void expdist_any(Queue& queue, std::int64_t m, std::int64_t n, const T* a, const T* b, const T* sigma_a,
                 const T* sigma_b, T* cost, T* workspace) {
  const char* function = "portkern::ops::expdist";
  require(m >= 0, function, "m", m, ">= 0");
  require(n >= 0, function, "n", n, ">= 0");
  checked_elements<T>({2, checked_add(m, n, function, "m + n")}, function, "the points a and b (2 * (m + n))");
  queue.check_pointer(cost, function, "cost");
  if (m == 0 || n == 0) {   // the empty sum
    queue.fill(cost, T(0), 1);
    return;
  }
  queue.check_pointer(a, function, "a");
  queue.check_pointer(b, function, "b");
  queue.check_pointer(sigma_a, function, "sigma_a");
  queue.check_pointer(sigma_b, function, "sigma_b");
  queue.check_pointer(workspace, function, "workspace");
  if (queue.device().is_cpu()) return expdist_impl::portable_cpu(queue, m, n, a, b, sigma_a, sigma_b, cost, workspace);
#if PORTKERN_HAVE_CUDA
  expdist_impl::portable_cuda(queue, m, n, a, b, sigma_a, sigma_b, cost, workspace);
#endif
}

}  // namespace

std::int64_t expdist_workspace_size(std::int64_t m, std::int64_t n) {
  require(m >= 0, "portkern::ops::expdist_workspace_size", "m", m, ">= 0");
  require(n >= 0, "portkern::ops::expdist_workspace_size", "n", n, ">= 0");
  checked_elements<double>({2, checked_add(m, n, "portkern::ops::expdist_workspace_size", "m + n")},
                          "portkern::ops::expdist_workspace_size", "the points a and b (2 * (m + n))");
  const std::int64_t count = expdist_impl::blocks(m, n).count();
  return count > 0 ? count : 1;
}

void expdist(Queue& queue, std::int64_t m, std::int64_t n, const float* a, const float* b, const float* sigma_a,
             const float* sigma_b, float* cost, float* workspace) {
  expdist_any(queue, m, n, a, b, sigma_a, sigma_b, cost, workspace);
}
void expdist(Queue& queue, std::int64_t m, std::int64_t n, const double* a, const double* b, const double* sigma_a,
             const double* sigma_b, double* cost, double* workspace) {
  expdist_any(queue, m, n, a, b, sigma_a, sigma_b, cost, workspace);
}

}  // namespace portkern::ops
