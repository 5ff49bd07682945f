// The cuda_wgmma family's matrix-vector product (launch.hpp): m == 1 with B's columns contiguous along k (B not
// transposed), C = alpha * a B + beta * C for a row a; also the transposed product of n == 1 with A transposed (C
// then stored transposed). Bound by reading B once from memory, which needs many loads in flight: one warp per
// column of B, each lane reading 16 bytes (8 values) at a time where B's alignment allows (else 4 or 2), four
// loads issued before their sums; the row a staged in shared memory as fp32 in chunks of k; sums reduced across
// the warp. Any GPU.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "gemm/cuda_wgmma/launch.hpp"
#include "gemm/cuda_wgmma/widen.cuh"
#include "portkern/runtime/cuda_check.hpp"

namespace portkern::gemm_impl::cuda_wgmma {

namespace {

constexpr int threads = 256, warps = threads / 32, chunk = 4096, in_flight = 4;

// `Values` 16-bit values of B loaded at once (8, 2 or 1: 16, 4 or 2 bytes).
template <int Values>
struct Load;
template <>
struct Load<8> {
  using type = uint4;
};
template <>
struct Load<2> {
  using type = std::uint32_t;
};
template <>
struct Load<1> {
  using type = std::uint16_t;
};

// Value e of a load (the lower address first).
template <int Values>
__device__ __forceinline__ std::uint16_t value(const typename Load<Values>::type& x, int e) {
  if constexpr (Values == 8) {
    const std::uint32_t word = e < 2 ? x.x : e < 4 ? x.y : e < 6 ? x.z : x.w;
    return std::uint16_t(e % 2 ? word >> 16 : word & 0xffff);
  } else if constexpr (Values == 2) {
    return std::uint16_t(e ? x >> 16 : x & 0xffff);
  } else {
    return x;
  }
}

// Values: what B's base, ldb and batch stride allow (launch_gemv); k0 is a multiple of chunk, so of Values too.
template <Input input, int Values>
__global__ void __launch_bounds__(threads) gemv(const Problem p, std::int64_t batch0) {
  using L = typename Load<Values>::type;
  __shared__ alignas(16) float row[chunk];
  const std::int64_t problem = batch0 + blockIdx.y;
  const auto* a = static_cast<const std::uint16_t*>(p.a) + problem * p.stride_a;
  const auto* b = static_cast<const std::uint16_t*>(p.b) + problem * p.stride_b;
  const int lane = threadIdx.x % 32;
  const std::int64_t j = std::int64_t(blockIdx.x) * warps + threadIdx.x / 32;
  float sum = 0.f;
  // The sums of one load at row[i]: the row's values read as wide as the load (a lane's 8 values in two 16-byte
  // reads, 2-way bank conflicts, where one value at a time would meet 8-way ones).
  auto add = [&](const L& x, int i) {
    float r[Values];
    if constexpr (Values == 8) {
      const float4 lo = *reinterpret_cast<const float4*>(row + i), hi = *reinterpret_cast<const float4*>(row + i + 4);
      r[0] = lo.x, r[1] = lo.y, r[2] = lo.z, r[3] = lo.w, r[4] = hi.x, r[5] = hi.y, r[6] = hi.z, r[7] = hi.w;
    } else if constexpr (Values == 2) {
      const float2 two = *reinterpret_cast<const float2*>(row + i);
      r[0] = two.x, r[1] = two.y;
    } else {
      r[0] = row[i];
    }
#pragma unroll
    for (int e = 0; e < Values; ++e) sum = fmaf(r[e], widen<input>(value<Values>(x, e)), sum);
  };
  for (std::int64_t k0 = 0; k0 < p.k; k0 += chunk) {
    const int length = int(std::min<std::int64_t>(chunk, p.k - k0));
    __syncthreads();
    for (int i = threadIdx.x; i < length; i += threads) row[i] = widen<input>(a[p.trans_a ? k0 + i : (k0 + i) * p.lda]);
    __syncthreads();
    if (j >= p.n) continue;
    const L* const column = reinterpret_cast<const L*>(b + j * p.ldb + k0);
    // Load v (Values values from v * Values on) of the lane's: v = lane, lane + 32, ...; `in_flight` at a time.
    const int loads = length / Values;
    int v = lane;
    for (; v + 32 * (in_flight - 1) < loads; v += 32 * in_flight) {
      L x[in_flight];
#pragma unroll
      for (int u = 0; u < in_flight; ++u) x[u] = __ldg(column + v + 32 * u);
#pragma unroll
      for (int u = 0; u < in_flight; ++u) add(x[u], (v + 32 * u) * Values);
    }
    for (; v < loads; v += 32) add(__ldg(column + v), v * Values);
    const std::uint16_t* const rest = b + j * p.ldb + k0;
    for (int i = loads * Values + lane; i < length; i += 32) sum = fmaf(row[i], widen<input>(rest[i]), sum);
  }
  for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_xor_sync(0xffffffffu, sum, offset);
  if (lane == 0 && j < p.n) {
    float* const at = p.c + problem * p.stride_c + j * (p.c_transposed ? 1 : p.ldc);   // C(0, j)
    *at = p.beta == 0.f ? p.alpha * sum : p.alpha * sum + p.beta * *at;
  }
}

}  // namespace

bool gemv_fits(const Problem& p) { return p.m == 1 && !p.trans_b && (p.n + warps - 1) / warps < (std::int64_t(1) << 31); }

void launch_gemv(Input input, const Problem& p, cudaStream_t stream) {
  // The widest load that B's base, leading dimension and batch stride are all aligned to.
  auto aligned = [&](int values) {
    return reinterpret_cast<std::uintptr_t>(p.b) % (2 * values) == 0 && p.ldb % values == 0 &&
           (p.batch == 1 || p.stride_b % values == 0);
  };
  const int values = aligned(8) ? 8 : aligned(2) ? 2 : 1;
  using Kernel = void (*)(const Problem, std::int64_t);
  const Kernel kernel = input == Input::bf16 ? (values == 8 ? &gemv<Input::bf16, 8>
                                                : values == 2 ? &gemv<Input::bf16, 2> : &gemv<Input::bf16, 1>)
                                             : (values == 8 ? &gemv<Input::f16, 8>
                                                : values == 2 ? &gemv<Input::f16, 2> : &gemv<Input::f16, 1>);
  per_grid_of_problems(p.batch, [&](std::int64_t first, unsigned count) {
    kernel<<<dim3(unsigned((p.n + warps - 1) / warps), count), threads, 0, stream>>>(p, first);
    PORTKERN_CUDA_CHECK("portkern::gemm (cuda_wgmma)", cudaGetLastError());
  });
}

}  // namespace portkern::gemm_impl::cuda_wgmma
