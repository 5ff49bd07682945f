// The `tiled` convolution family (seed 000, section 4.1.1), written once in the kernel model.
//
// Computes the convolution (dilation 1; any window, stride, padding; bias and ReLU) with each item owning a
// tile of P.tile_h x P.tile_w output pixels times P.vec_k consecutive output channels. Adjacent output pixels
// read overlapping input windows, so a tile reuses each loaded input value up to tile_h * tile_w times
// (fewer loads), and each filter vector of vec_k channels serves the whole tile. Input channels are read
// P.vec_c at a time (one vector load per pixel where in_c is a multiple and aligned; element loads with zero
// fill at the channel tail otherwise). A group is 32 items along the output channels (32 * vec_k channels)
// at one pixel tile: consecutive items read consecutive filter vectors.
// Parameters: tile_h, tile_w, vec_c, vec_k (tiled_config.hpp). Larger tiles and vectors mean more reuse and
// more registers: on a GPU the best balance is device-specific (seed 000, figure 3); on the CPU the
// GEMM-based algorithms are faster for large channel counts, tiled wins for few channels and odd shapes.
#pragma once

#include "conv2d/args.hpp"
#include "conv2d/tiled/tiled_config.hpp"

namespace portkern::conv2d_impl {

template <TiledConvConfig P>
struct Conv2dTiled {
  static constexpr int items = 32, TH = P.tile_h, TW = P.tile_w, VC = P.vec_c, VK = P.vec_k;
  using group_shape = kernel::Shape<items>;
  ConvArgs a;
  bool vector_c, vector_k;   // in_c % VC == 0 and aligned input; out_c % VK == 0 and aligned filter/output

  kernel::Range groups() const {
    const std::int64_t tiles_h = (a.out_h + TH - 1) / TH, tiles_w = (a.out_w + TW - 1) / TW;
    return {a.batch * tiles_h * tiles_w, (a.out_c + items * VK - 1) / (items * VK), 1};
  }

  template <class Group>
  PORTKERN_KERNEL void operator()(Group& g) const {
    const std::int64_t tiles_h = (a.out_h + TH - 1) / TH, tiles_w = (a.out_w + TW - 1) / TW;
    const std::int64_t tx = g.x() % tiles_w, ty = (g.x() / tiles_w) % tiles_h, n = g.x() / (tiles_w * tiles_h);
    const std::int64_t oy0 = ty * TH, ox0 = tx * TW, k0 = g.y() * items * VK;
    const float* image = a.input + n * a.in_h * a.in_w * a.in_c;
    g.for_each_item([&](kernel::Item item) {
      const std::int64_t k = k0 + item.x * VK;
      if (k >= a.out_c) return;
      float acc[TH][TW][VK];
      PORTKERN_UNROLL
      for (int i = 0; i < TH; ++i)
        PORTKERN_UNROLL
        for (int j = 0; j < TW; ++j)
          PORTKERN_UNROLL
          for (int v = 0; v < VK; ++v) acc[i][j][v] = 0.f;
      const bool full_k = vector_k && k + VK <= a.out_c;
      for (std::int64_t r = 0; r < a.window_h; ++r)
        for (std::int64_t s = 0; s < a.window_w; ++s) {
          // The tile's input pixels for this window position; nullptr outside the image. A tile's rows and
          // columns past the output are left out first: their positions could overflow with a huge stride.
          const float* in[TH][TW];
          PORTKERN_UNROLL
          for (int i = 0; i < TH; ++i) {
            const std::int64_t iy = oy0 + i < a.out_h ? (oy0 + i) * a.stride_h + r - a.pad_top : -1;
            PORTKERN_UNROLL
            for (int j = 0; j < TW; ++j) {
              const std::int64_t ix = ox0 + j < a.out_w ? (ox0 + j) * a.stride_w + s - a.pad_left : -1;
              in[i][j] = iy >= 0 && iy < a.in_h && ix >= 0 && ix < a.in_w ? image + (iy * a.in_w + ix) * a.in_c
                                                                          : nullptr;
            }
          }
          const float* f_rs = a.filter + (r * a.window_w + s) * a.in_c * a.out_c + k;
          for (std::int64_t c0 = 0; c0 < a.in_c; c0 += VC) {
            const bool full_c = vector_c && c0 + VC <= a.in_c;
            float f[VC][VK];
            PORTKERN_UNROLL
            for (int cc = 0; cc < VC; ++cc) {
              const float* row = f_rs + (c0 + cc) * a.out_c;
              if (full_k && c0 + cc < a.in_c) {
                const auto w = kernel::vec<float, VK>::load(row);
                PORTKERN_UNROLL
                for (int v = 0; v < VK; ++v) f[cc][v] = w[v];
              } else {
                PORTKERN_UNROLL
                for (int v = 0; v < VK; ++v) f[cc][v] = c0 + cc < a.in_c && k + v < a.out_c ? row[v] : 0.f;
              }
            }
            PORTKERN_UNROLL
            for (int i = 0; i < TH; ++i)
              PORTKERN_UNROLL
              for (int j = 0; j < TW; ++j) {
                float x[VC];
                if (in[i][j] && full_c) {
                  const auto w = kernel::vec<float, VC>::load(in[i][j] + c0);
                  PORTKERN_UNROLL
                  for (int cc = 0; cc < VC; ++cc) x[cc] = w[cc];
                } else {
                  PORTKERN_UNROLL
                  for (int cc = 0; cc < VC; ++cc) x[cc] = in[i][j] && c0 + cc < a.in_c ? in[i][j][c0 + cc] : 0.f;
                }
                PORTKERN_UNROLL
                for (int cc = 0; cc < VC; ++cc)
                  PORTKERN_UNROLL
                  for (int v = 0; v < VK; ++v) acc[i][j][v] += x[cc] * f[cc][v];
              }
          }
        }
      PORTKERN_UNROLL
      for (int i = 0; i < TH; ++i)
        PORTKERN_UNROLL
        for (int j = 0; j < TW; ++j) {
          const std::int64_t oy = oy0 + i, ox = ox0 + j;
          if (oy >= a.out_h || ox >= a.out_w) continue;
          float* out = a.output + ((n * a.out_h + oy) * a.out_w + ox) * a.out_c + k;
          if (full_k) {
            kernel::vec<float, VK> w;
            PORTKERN_UNROLL
            for (int v = 0; v < VK; ++v) w[v] = finish(acc[i][j][v], a, out - a.output + v, k + v);
            w.store(out);
          } else {
            PORTKERN_UNROLL
            for (int v = 0; v < VK; ++v)
              if (k + v < a.out_c) out[v] = finish(acc[i][j][v], a, out - a.output + v, k + v);
          }
        }
    });
  }
};

}  // namespace portkern::conv2d_impl
