// cross_entropy_backward written directly in CUDA, for the portability comparison: one thread per N
// consecutive positions (the same vector width as the portable call, up to 16 bytes), gamma and target in
// registers, a class loop unrolled by 4 over __restrict__ / __ldg vector loads and vector stores; 128
// threads per block, grid (position blocks x batch) flattened as the portable one. Same (corrected) formula.
#include "ops/cross_entropy/backends.hpp"
#include "portkern/kernel/model.hpp"
#include "portkern/runtime/cuda_check.hpp"

namespace portkern::ops::cross_entropy_impl {

namespace {

constexpr int threads = 128;

template <class T, int N>
__global__ void __launch_bounds__(threads) backward_native(Args<T> a, std::int64_t per_batch) {
  using C = Compute<T>;
  using V = kernel::vec<T, N>;
  const std::int64_t b = blockIdx.x / per_batch;
  const std::int64_t h0 = (blockIdx.x - b * per_batch) * std::int64_t(threads) * N + std::int64_t(threadIdx.x) * N;
  const std::int64_t H = a.positions, W = a.classes;
  if (h0 >= H) return;
  C gamma[N];
  int target[N];
#pragma unroll
  for (int e = 0; e < N; ++e) {
    const std::int64_t i = b * H + h0 + e;
    const std::int64_t t = __ldg(a.target + i);
    target[e] = t >= 0 && t < W ? int(t) : -1;
    gamma[e] = -(widen(a.grad_out[i]) + C(__ldg(a.mask + i)) * widen(a.grad_out_neg[i])) * widen(a.weight[i]);
  }
  const T* __restrict__ L = a.log_probs + b * W * H + h0;
  T* __restrict__ G = a.grad + b * W * H + h0;
#pragma unroll 4
  for (int k = 0; k < W; ++k) {
    const V l = V::load(L + std::int64_t(k) * H);
    V o;
#pragma unroll
    for (int e = 0; e < N; ++e) {
      const C onehot = target[e] == k ? C(1) : C(0);
      if constexpr (sizeof(C) == 8) o[e] = narrow<T>(gamma[e] * (onehot - exp(widen(l[e]))));
      else o[e] = narrow<T>(gamma[e] * (onehot - expf(widen(l[e]))));
    }
    o.store(G + std::int64_t(k) * H);
  }
}

template <class T, int N>
void launch(Queue& queue, const Args<T>& a) {
  const std::int64_t per_batch = (a.positions + std::int64_t(threads) * N - 1) / (std::int64_t(threads) * N);
  backward_native<T, N><<<unsigned(per_batch * a.batch), threads, 0, static_cast<cudaStream_t>(queue.native_stream())>>>(
      a, per_batch);
  PORTKERN_CUDA_CHECK("portkern::ops::cross_entropy_backward (native)", cudaGetLastError());
}

}  // namespace

template <class T>
void native_cuda(Queue& queue, const Args<T>& a) {
  if (a.batch == 0 || a.classes == 0 || a.positions == 0) return;
  switch (a.width) {
    case 2: return launch<T, 2>(queue, a);
    case 4:
      if constexpr (sizeof(T) <= 4) return launch<T, 4>(queue, a);
      break;
    case 8:
      if constexpr (sizeof(T) <= 2) return launch<T, 8>(queue, a);
      break;
  }
  launch<T, 1>(queue, a);
}
template void native_cuda(Queue&, const Args<half>&);
template void native_cuda(Queue&, const Args<float>&);
template void native_cuda(Queue&, const Args<double>&);

}  // namespace portkern::ops::cross_entropy_impl
