// adam written directly in CUDA, for the portability comparison: one element per thread, 64-thread blocks,
// read-only gradient through __ldg, the same per-element arithmetic as the portable kernel (update<Mode>).
#include "ops/adam/backends.hpp"
#include "ops/adam/kernel.hpp"
#include "portkern/runtime/cuda_check.hpp"

namespace portkern::ops::adam_impl {

namespace {

constexpr int threads = 64;

template <AdamMode Mode>
__global__ void __launch_bounds__(threads) adam_native(Params c, std::int64_t count, float* __restrict__ p,
                                                       float* __restrict__ m, float* __restrict__ v,
                                                       const float* __restrict__ g) {
  const std::int64_t i = std::int64_t(blockIdx.x) * threads + threadIdx.x;
  if (i >= count) return;
  float pi = p[i], mi = m[i], vi = v[i];
  update<Mode>(c, pi, mi, vi, __ldg(g + i));
  p[i] = pi;
  m[i] = mi;
  v[i] = vi;
}

}  // namespace

void native_cuda(Queue& queue, const Params& c, AdamMode mode, std::int64_t count, float* p, float* m, float* v,
                 const float* g) {
  if (count == 0 || c.steps == 0) return;
  const unsigned blocks = unsigned((count + threads - 1) / threads);
  const auto stream = static_cast<cudaStream_t>(queue.native_stream());
  if (mode == AdamMode::adamw)
    adam_native<AdamMode::adamw><<<blocks, threads, 0, stream>>>(c, count, p, m, v, g);
  else
    adam_native<AdamMode::eps_inside_sqrt><<<blocks, threads, 0, stream>>>(c, count, p, m, v, g);
  PORTKERN_CUDA_CHECK("portkern::ops::adam (native)", cudaGetLastError());
}

}  // namespace portkern::ops::adam_impl
