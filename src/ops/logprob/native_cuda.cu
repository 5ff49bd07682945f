// logprob written directly in CUDA, for the portability comparison: the same one-pass online max/sum per
// row (256 threads, 4 independent float4 __ldg loads per thread per step), merged with warp shuffles and
// an 8-slot shared array; the per-sequence sum with shuffles too. Same lengths/ids semantics as the
// portable kernels; the host-side length check lives in api.cpp, so the native time leaves it out.
#include <cfloat>

#include "ops/logprob/backends.hpp"
#include "portkern/runtime/cuda_check.hpp"

namespace portkern::ops::logprob_impl {

namespace {

constexpr int threads = 256, unroll = 4;

__device__ __forceinline__ void merge_into(float& m, float& s, float m2, float s2) {
  const float mm = fmaxf(m, m2);
  s = s * expf(m - mm) + s2 * expf(m2 - mm);
  m = mm;
}

__global__ void __launch_bounds__(threads) rows_native(Args a) {
  const std::int64_t per_seq = a.steps - 1, row = blockIdx.x;
  const std::int64_t b = row / per_seq, t = row - b * per_seq;
  if (t >= std::int64_t(__ldg(a.lengths + b)) - 1) {
    if (threadIdx.x == 0) a.log_probs[row] = 0.f;
    return;
  }
  const float* __restrict__ r = a.logits + (b * a.steps + t) * a.padded;
  float m = -FLT_MAX, s = 0.f;
  std::int64_t done = 0;
  if (a.vectorized) {
    const std::int64_t nvec = a.vocab / 4;
    const float4* __restrict__ r4 = reinterpret_cast<const float4*>(r);
    for (std::int64_t base = threadIdx.x; base < nvec; base += threads * unroll) {
      float4 x[unroll];
#pragma unroll
      for (int u = 0; u < unroll; ++u) {
        const std::int64_t i = base + u * threads;
        x[u] = i < nvec ? __ldg(r4 + i) : make_float4(-INFINITY, -INFINITY, -INFINITY, -INFINITY);
      }
      float mm = m;
#pragma unroll
      for (int u = 0; u < unroll; ++u) mm = fmaxf(fmaxf(fmaxf(mm, x[u].x), fmaxf(x[u].y, x[u].z)), x[u].w);
      s *= expf(m - mm);
#pragma unroll
      for (int u = 0; u < unroll; ++u) s += expf(x[u].x - mm) + expf(x[u].y - mm) + expf(x[u].z - mm) + expf(x[u].w - mm);
      m = mm;
    }
    done = nvec * 4;
  }
  for (std::int64_t c = done + threadIdx.x; c < a.vocab; c += threads) {
    const float x = __ldg(r + c);
    const float mm = fmaxf(m, x);
    s = s * expf(m - mm) + expf(x - mm);
    m = mm;
  }
#pragma unroll
  for (int off = 16; off > 0; off /= 2) {
    const float m2 = __shfl_xor_sync(0xffffffffu, m, off), s2 = __shfl_xor_sync(0xffffffffu, s, off);
    merge_into(m, s, m2, s2);
  }
  __shared__ float ms[threads / 32], ss[threads / 32];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (lane == 0) ms[warp] = m, ss[warp] = s;
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int w = 1; w < threads / 32; ++w) merge_into(m, s, ms[w], ss[w]);
    const int id = __ldg(a.ids + b * a.steps + t + 1);
    const float target = id >= 0 && id < a.vocab ? __ldg(r + id) : NAN;
    a.log_probs[row] = target - m - logf(s + 1e-9f);
  }
}

__global__ void __launch_bounds__(threads) sums_native(Args a) {
  const std::int64_t b = blockIdx.x, per_seq = a.steps - 1;
  const std::int64_t n = std::int64_t(__ldg(a.lengths + b)) - 1;
  const float* lp = a.log_probs + b * per_seq;
  double acc = 0;
  for (std::int64_t t = threadIdx.x; t < n; t += threads) acc += double(lp[t]);
#pragma unroll
  for (int off = 16; off > 0; off /= 2) acc += __shfl_xor_sync(0xffffffffu, acc, off);
  __shared__ double part[threads / 32];
  if (threadIdx.x % 32 == 0) part[threadIdx.x / 32] = acc;
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int w = 1; w < threads / 32; ++w) acc += part[w];
    a.cum[b] = float(acc);
  }
}

}  // namespace

void native_cuda(Queue& queue, const Args& a) {
  if (a.batch == 0) return;
  const auto stream = static_cast<cudaStream_t>(queue.native_stream());
  if (a.steps > 1) {
    rows_native<<<unsigned(a.batch * (a.steps - 1)), threads, 0, stream>>>(a);
    PORTKERN_CUDA_CHECK("portkern::ops::logprob (native)", cudaGetLastError());
  }
  sums_native<<<unsigned(a.batch), threads, 0, stream>>>(a);
  PORTKERN_CUDA_CHECK("portkern::ops::logprob (native)", cudaGetLastError());
}

}  // namespace portkern::ops::logprob_impl
