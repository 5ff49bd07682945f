// dwconv written directly in CUDA, for the portability comparison: the same tiling as the portable kernel
// (a 32 x 4 block owns a 32 x 32 output tile of all m channels of one input channel, a thread computes 8
// rows of one column with register reuse of the input rows), weights in registers, __ldg loads; k = 1, 3, 5
// compiled as constants, other k through a generic loop.
#include "ops/dwconv/backends.hpp"
#include "ops/dwconv/kernel.hpp"
#include "portkern/runtime/cuda_check.hpp"

namespace portkern::ops::dwconv_impl {

namespace {

template <int Kc>
__global__ void __launch_bounds__(tile * items_y) dwconv_native(Params p, const float* __restrict__ in,
                                                               const float* __restrict__ weight,
                                                               const float* __restrict__ bias,
                                                               float* __restrict__ out) {
  constexpr int max_k = Kc > 0 ? Kc : 1;
  const int k = Kc > 0 ? Kc : p.k;
  const std::int64_t tiles = p.tiles_x * p.tiles_y;
  const std::int64_t plane = blockIdx.x / tiles, t = blockIdx.x % tiles;
  const std::int64_t ty = t / p.tiles_x, tx = t % p.tiles_x;
  const std::int64_t c_in = plane % p.channels;
  const float* src = in + plane * p.height * p.width;
  const std::int64_t plane_out = p.out_height * p.out_width;
  const std::int64_t ox = tx * tile + threadIdx.x;
  const std::int64_t oy0 = ty * tile + std::int64_t(threadIdx.y) * item_rows;
  if (ox >= p.out_width || oy0 >= p.out_height) return;   // no block-wide synchronisation below
  const std::int64_t ix0 = ox - p.pad;
  for (int mo = 0; mo < p.multiplier; ++mo) {
    const std::int64_t oc = c_in * p.multiplier + mo;
    const float* wc = weight + oc * k * k;
    float acc[item_rows];
    const float b = bias ? __ldg(bias + oc) : 0.f;
#pragma unroll
    for (int r = 0; r < item_rows; ++r) acc[r] = b;
    if constexpr (Kc > 0) {
      float w[max_k][max_k];
#pragma unroll
      for (int i = 0; i < Kc; ++i)
#pragma unroll
        for (int j = 0; j < Kc; ++j) w[i][j] = __ldg(wc + i * Kc + j);
#pragma unroll
      for (int r = 0; r < item_rows + Kc - 1; ++r) {
        const std::int64_t iy = oy0 - p.pad + r;
        const bool row_ok = iy >= 0 && iy < p.height;
        const float* row = src + iy * p.width + ix0;
        float v[Kc];
#pragma unroll
        for (int j = 0; j < Kc; ++j) v[j] = row_ok && ix0 + j >= 0 && ix0 + j < p.width ? __ldg(row + j) : 0.f;
#pragma unroll
        for (int o = 0; o < item_rows; ++o) {
          const int i = r - o;
          if (i >= 0 && i < Kc) {
#pragma unroll
            for (int j = 0; j < Kc; ++j) acc[o] = fmaf(w[i][j], v[j], acc[o]);
          }
        }
      }
    } else {
      for (int r = 0; r < item_rows + k - 1; ++r) {
        const std::int64_t iy = oy0 - p.pad + r;
        if (iy < 0 || iy >= p.height) continue;
        const float* row = src + iy * p.width + ix0;
        for (int j = 0; j < k; ++j) {
          if (ix0 + j < 0 || ix0 + j >= p.width) continue;
          const float v = __ldg(row + j);
#pragma unroll
          for (int o = 0; o < item_rows; ++o) {
            const int i = r - o;
            if (i >= 0 && i < k) acc[o] = fmaf(__ldg(wc + i * k + j), v, acc[o]);
          }
        }
      }
    }
    float* col = out + (plane * p.multiplier + mo) * plane_out + oy0 * p.out_width + ox;
#pragma unroll
    for (int o = 0; o < item_rows; ++o)
      if (oy0 + o < p.out_height) col[o * p.out_width] = acc[o];
  }
}

}  // namespace

void native_cuda(Queue& queue, const DwconvShape& s, const float* in, const float* weight, const float* bias,
                 float* out) {
  const Params p = make_params(s);
  const std::int64_t blocks = s.batch * s.channels * p.tiles_x * p.tiles_y;
  if (blocks == 0) return;
  const dim3 block(tile, items_y);
  auto stream = static_cast<cudaStream_t>(queue.native_stream());
  switch (s.kernel) {
    case 1: dwconv_native<1><<<unsigned(blocks), block, 0, stream>>>(p, in, weight, bias, out); break;
    case 3: dwconv_native<3><<<unsigned(blocks), block, 0, stream>>>(p, in, weight, bias, out); break;
    case 5: dwconv_native<5><<<unsigned(blocks), block, 0, stream>>>(p, in, weight, bias, out); break;
    default: dwconv_native<0><<<unsigned(blocks), block, 0, stream>>>(p, in, weight, bias, out); break;
  }
  PORTKERN_CUDA_CHECK("portkern::ops::dwconv (native)", cudaGetLastError());
}

}  // namespace portkern::ops::dwconv_impl
