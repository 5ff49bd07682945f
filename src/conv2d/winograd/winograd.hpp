// The `winograd` convolution family: F(2x2, 3x3) and F(4x4, 3x3) (Lavin & Gray; seed 000, section 4.1.2),
// its three transforms written once in the kernel model, the products as batched GEMMs.
//
// For 3x3 windows, stride 1, dilation 1 (any padding, bias, ReLU). With alpha = M + 2 (M = 2 or 4 output
// rows/columns per tile), every M x M output tile of every image is
//     Y = A^T [ sum_c (G g_c G^T) .* (B^T d_c B) ] A
// where d_c is the tile's alpha x alpha input patch of channel c and g_c the 3 x 3 filter of channel c (for
// each output channel k). The element-wise product summed over c is, for each of the alpha^2 positions, a
// matrix product (out_c x in_c) * (in_c x tiles): alpha^2 = 16 or 36 GEMMs through
// portkern::gemm_strided_batched. Filter transform U = G g G^T: [alpha^2][in_c][out_c]; input transform
// V = B^T d B: [alpha^2][tiles][in_c]; GEMM products: [alpha^2][tiles][out_c]; output transform Y.
// Tiles are processed in chunks so that V and the products stay in cache on the CPU.
// Parameters: M (2 or 4), the tiles per chunk (set at run time from the device). Multiplications per
// output: 9 * in_c direct, (alpha/M)^2 * in_c with Winograd (4 for F(2x2), 2.25 for F(4x4)): it wins for
// 3x3 stride-1 layers with enough channels that the GEMMs are efficient (in_c, out_c >= 16 or so).
//
// Error bound. Write |X| for the element-wise absolute value. In floating point (unit roundoff u = 2^-24,
// gamma_n = n u / (1 - n u)), each output satisfies, to first order,
//     |y - y_exact| <= gamma_{in_c + e} * |A^T| [ sum_c (|G| |g_c| |G^T|) .* (|B^T| |d_c| |B|) ] |A|,
// with e = 8 for F(2x2) and e = 16 for F(4x4) covering the transforms' own additions. Unlike the direct
// sum (whose bound is gamma_{9 in_c} sum |g||d|), the transform magnitudes multiply it: the row sums of
// |B^T|, |G|, |A^T| are at most 2, 1.5, 3 for F(2x2) (growth <= (2 * 1.5 * 3)^2 = 81 against sum |g||d|, in
// practice ~4) and 10, 0.5, 18 for F(4x4) (growth <= (10 * 0.5 * 18)^2 = 8100, in practice ~100): F(4x4) loses
// about two decimal digits more than direct convolution, F(2x2) about half a digit. The tests check the
// element-wise bound above, computed in float64 from the data, with a safety factor of 2.
#pragma once

#include "conv2d/args.hpp"

namespace portkern::conv2d_impl {

// The transform matrices of F(M x M, 3x3): B^T (alpha x alpha), G (alpha x 3), A^T (M x alpha).
template <int M>
struct WinogradMatrices;

template <>
struct WinogradMatrices<2> {
  static constexpr int alpha = 4;
  PORTKERN_INLINE static constexpr float bt(int i, int j) {
    constexpr float m[4][4] = {{1, 0, -1, 0}, {0, 1, 1, 0}, {0, -1, 1, 0}, {0, 1, 0, -1}};
    return m[i][j];
  }
  PORTKERN_INLINE static constexpr float g(int i, int j) {
    constexpr float m[4][3] = {{1, 0, 0}, {0.5f, 0.5f, 0.5f}, {0.5f, -0.5f, 0.5f}, {0, 0, 1}};
    return m[i][j];
  }
  PORTKERN_INLINE static constexpr float at(int i, int j) {
    constexpr float m[2][4] = {{1, 1, 1, 0}, {0, 1, -1, -1}};
    return m[i][j];
  }
};

template <>
struct WinogradMatrices<4> {
  static constexpr int alpha = 6;
  PORTKERN_INLINE static constexpr float bt(int i, int j) {
    constexpr float m[6][6] = {{4, 0, -5, 0, 1, 0},  {0, -4, -4, 1, 1, 0}, {0, 4, -4, -1, 1, 0},
                               {0, -2, -1, 2, 1, 0}, {0, 2, -1, -2, 1, 0}, {0, 4, 0, -5, 0, 1}};
    return m[i][j];
  }
  PORTKERN_INLINE static constexpr float g(int i, int j) {
    constexpr float m[6][3] = {{1.f / 4, 0, 0},
                               {-1.f / 6, -1.f / 6, -1.f / 6},
                               {-1.f / 6, 1.f / 6, -1.f / 6},
                               {1.f / 24, 1.f / 12, 1.f / 6},
                               {1.f / 24, -1.f / 12, 1.f / 6},
                               {0, 0, 1}};
    return m[i][j];
  }
  PORTKERN_INLINE static constexpr float at(int i, int j) {
    constexpr float m[4][6] = {{1, 1, 1, 1, 1, 0}, {0, 1, -1, 2, -2, 0}, {0, 1, 1, 4, 4, 0}, {0, 1, -1, 8, -8, 1}};
    return m[i][j];
  }
};

// Floats between two positions' matrices of V or of the products (positions x tiles x channels) on the CPU: the
// matrix's floats rounded up to a whole, odd number of 64-byte lines. A tile's transforms touch all alpha^2 positions
// at once, and at a stride that is a multiple of 4 KiB they all fall in one set of the L1 cache (48 KiB, 12
// ways on Zen 5): 36 streams in 12 ways. Odd lines put up to 64 positions in 64 different sets. Seen on 2 Zen 5
// cores: chunks of 224 tiles of 64 channels (57 344 bytes a position) ran VGG-16's conv1_2 at 0.62x the speed
// of chunks of 227 tiles.
inline std::int64_t winograd_position_stride(std::int64_t floats) {
  constexpr std::int64_t line = 16;
  return ((floats + line - 1) / line | 1) * line;
}

// Which tiles a launch covers: tiles t = (n * tiles_h + ty) * tiles_w + tx in [begin, end).
struct WinogradTiles {
  std::int64_t tiles_h, tiles_w, begin, end;
};

// V[xi][t - begin][c] = (B^T d B)[xi] for each tile and input channel; a group is one tile, items channels.
template <int M>
struct WinogradInput {
  using W = WinogradMatrices<M>;
  static constexpr int items = 64, alpha = W::alpha;
  using group_shape = kernel::Shape<items>;
  ConvArgs a;
  WinogradTiles tiles;
  float* v;
  std::int64_t position_stride;   // floats between two positions' matrices (on the CPU winograd_position_stride)

  kernel::Range groups() const { return {tiles.end - tiles.begin, (a.in_c + items - 1) / items, 1}; }

  template <class Group>
  PORTKERN_KERNEL void operator()(Group& g) const {
    const std::int64_t t = tiles.begin + g.x();
    const std::int64_t tx = t % tiles.tiles_w, ty = (t / tiles.tiles_w) % tiles.tiles_h,
                       n = t / (tiles.tiles_w * tiles.tiles_h);
    const std::int64_t iy0 = ty * M - a.pad_top, ix0 = tx * M - a.pad_left, c0 = g.y() * items;
    const float* image = a.input + n * a.in_h * a.in_w * a.in_c;
    // A tile inside the image (uniform) reads its window without conditions, which the CPU vectorises (a
    // condition on each element, even a uniform one, becomes masked loads GCC 12 does not vectorise).
    if (iy0 >= 0 && ix0 >= 0 && iy0 + alpha <= a.in_h && ix0 + alpha <= a.in_w)
      transform<true>(g, image, iy0, ix0, c0);
    else
      transform<false>(g, image, iy0, ix0, c0);
  }

  template <bool Inside, class Group>
  PORTKERN_INLINE void transform(Group& g, const float* image, std::int64_t iy0, std::int64_t ix0,
                                 std::int64_t c0) const {
    g.for_each_item_below(a.in_c - c0, [&](kernel::Item item) {
      const std::int64_t c = c0 + item.x;
      float d[alpha][alpha];
      PORTKERN_UNROLL
      for (int i = 0; i < alpha; ++i)
        PORTKERN_UNROLL
        for (int j = 0; j < alpha; ++j) {
          const std::int64_t iy = iy0 + i, ix = ix0 + j;
          // Padding: the load is of a pixel that exists (the window's own where inside, else pixel 0) and a
          // select makes it 0, so that no load is conditional.
          const bool there = Inside || (iy >= 0 && iy < a.in_h && ix >= 0 && ix < a.in_w);
          const float value = image[(there ? iy * a.in_w + ix : 0) * a.in_c + c];
          d[i][j] = there ? value : 0.f;
        }
      float tmp[alpha][alpha];   // B^T d
      PORTKERN_UNROLL
      for (int i = 0; i < alpha; ++i)
        PORTKERN_UNROLL
        for (int j = 0; j < alpha; ++j) {
          float sum = 0.f;
          PORTKERN_UNROLL
          for (int l = 0; l < alpha; ++l)
            if (W::bt(i, l) != 0.f) sum += W::bt(i, l) * d[l][j];
          tmp[i][j] = sum;
        }
      PORTKERN_UNROLL
      for (int i = 0; i < alpha; ++i)
        PORTKERN_UNROLL
        for (int j = 0; j < alpha; ++j) {   // (B^T d) B: B[l][j] = B^T[j][l]
          float sum = 0.f;
          PORTKERN_UNROLL
          for (int l = 0; l < alpha; ++l)
            if (W::bt(j, l) != 0.f) sum += tmp[i][l] * W::bt(j, l);
          v[(i * alpha + j) * position_stride + g.x() * a.in_c + c] = sum;
        }
    });
  }
};

// U[xi][c][k] = (G g G^T)[xi] for each input and output channel; a group is one input channel.
template <int M>
struct WinogradFilterTransform {
  using W = WinogradMatrices<M>;
  static constexpr int items = 64, alpha = W::alpha;
  using group_shape = kernel::Shape<items>;
  std::int64_t in_c, out_c;
  const float* filter;   // 3 x 3 x in_c x out_c
  float* u;

  kernel::Range groups() const { return {in_c, (out_c + items - 1) / items, 1}; }

  template <class Group>
  PORTKERN_KERNEL void operator()(Group& g) const {
    const std::int64_t c = g.x(), k0 = g.y() * items;
    g.for_each_item_below(out_c - k0, [&](kernel::Item item) {
      const std::int64_t k = k0 + item.x;
      float w[3][3];
      PORTKERN_UNROLL
      for (int r = 0; r < 3; ++r)
        PORTKERN_UNROLL
        for (int s = 0; s < 3; ++s) w[r][s] = filter[((r * 3 + s) * in_c + c) * out_c + k];
      float tmp[alpha][3];   // G w
      PORTKERN_UNROLL
      for (int i = 0; i < alpha; ++i)
        PORTKERN_UNROLL
        for (int s = 0; s < 3; ++s) {
          float sum = 0.f;
          PORTKERN_UNROLL
          for (int r = 0; r < 3; ++r) sum += W::g(i, r) * w[r][s];
          tmp[i][s] = sum;
        }
      PORTKERN_UNROLL
      for (int i = 0; i < alpha; ++i)
        PORTKERN_UNROLL
        for (int j = 0; j < alpha; ++j) {
          float sum = 0.f;
          PORTKERN_UNROLL
          for (int s = 0; s < 3; ++s) sum += tmp[i][s] * W::g(j, s);
          u[((i * alpha + j) * in_c + c) * out_c + k] = sum;
        }
    });
  }
};

// Y = A^T m A for each tile and output channel, plus bias and ReLU, stored where inside the output; a group
// is one tile, items output channels. m[xi][t - begin][k] are the GEMM products.
template <int M>
struct WinogradOutput {
  using W = WinogradMatrices<M>;
  static constexpr int items = 64, alpha = W::alpha;
  using group_shape = kernel::Shape<items>;
  ConvArgs a;
  WinogradTiles tiles;
  const float* m;
  std::int64_t position_stride;   // floats between two positions' matrices of m (as V's)
  // Channels between one output pixel and the next: a.out_c, unless a.output, a.bias and a.out_c describe a
  // range of the layer's output channels (a core's part), and this is the layer's out_c.
  std::int64_t pixel_stride = 0;

  kernel::Range groups() const { return {tiles.end - tiles.begin, (a.out_c + items - 1) / items, 1}; }

  template <class Group>
  PORTKERN_KERNEL void operator()(Group& g) const {
    const std::int64_t t = tiles.begin + g.x();
    const std::int64_t tx = t % tiles.tiles_w, ty = (t / tiles.tiles_w) % tiles.tiles_h,
                       n = t / (tiles.tiles_w * tiles.tiles_h);
    const std::int64_t oy0 = ty * M, ox0 = tx * M, k0 = g.y() * items;
    const std::int64_t stride = pixel_stride ? pixel_stride : a.out_c;
    float* out = a.output + n * a.out_h * a.out_w * stride;
    // A tile whole inside the output (uniform) stores without conditions (see WinogradInput), and a call without
    // an epilogue stores the sums as they are (the epilogue's selects in the item loop, kernel/plus_if_set.hpp,
    // left ResNet-50's conv2_3 at 230 GFLOP/s on one Zen 5 core, F(4x4); without them 586).
    const bool inside = oy0 + M <= a.out_h && ox0 + M <= a.out_w, plain = !a.bias && !a.residual && !a.relu;
    if (inside && plain) transform<true, false>(g, out, oy0, ox0, k0, stride);
    else if (inside) transform<true, true>(g, out, oy0, ox0, k0, stride);
    else transform<false, true>(g, out, oy0, ox0, k0, stride);
  }

  template <bool Inside, bool Epilogue, class Group>
  PORTKERN_INLINE void transform(Group& g, float* out, std::int64_t oy0, std::int64_t ox0, std::int64_t k0,
                                 std::int64_t stride) const {
    g.for_each_item_below(a.out_c - k0, [&](kernel::Item item) {
      const std::int64_t k = k0 + item.x;
      float p[alpha][alpha];
      PORTKERN_UNROLL
      for (int i = 0; i < alpha; ++i)
        PORTKERN_UNROLL
        for (int j = 0; j < alpha; ++j) p[i][j] = m[(i * alpha + j) * position_stride + g.x() * a.out_c + k];
      float tmp[M][alpha];   // A^T p
      PORTKERN_UNROLL
      for (int i = 0; i < M; ++i)
        PORTKERN_UNROLL
        for (int j = 0; j < alpha; ++j) {
          float sum = 0.f;
          PORTKERN_UNROLL
          for (int l = 0; l < alpha; ++l)
            if (W::at(i, l) != 0.f) sum += W::at(i, l) * p[l][j];
          tmp[i][j] = sum;
        }
      PORTKERN_UNROLL
      for (int i = 0; i < M; ++i)
        PORTKERN_UNROLL
        for (int j = 0; j < M; ++j) {
          float sum = 0.f;
          PORTKERN_UNROLL
          for (int l = 0; l < alpha; ++l)
            if (W::at(j, l) != 0.f) sum += tmp[i][l] * W::at(j, l);
          const std::int64_t oy = oy0 + i, ox = ox0 + j;
          const std::int64_t at = (oy * a.out_w + ox) * stride + k;
          if (Inside || (oy < a.out_h && ox < a.out_w))
            out[at] = Epilogue ? finish(sum, a, out - a.output + at, k) : sum;
        }
    });
  }
};

}  // namespace portkern::conv2d_impl
