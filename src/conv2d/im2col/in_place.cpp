// im2col/in_place (in_place.hpp says what and when).
#include "conv2d/im2col/in_place.hpp"

#include <algorithm>
#include <cstring>
#include <optional>

#include "conv2d/call.hpp"
#include "gemm/cpu_packed/prepacked.hpp"
#include "portkern/gemm_packed.hpp"

namespace portkern::conv2d_impl {

namespace {

using i64 = std::int64_t;

// The image inside the zero border its windows reach: pad_top rows and pad_left columns before it, and after
// it as many as the last window needs (bottom / right padding no window reads is left out).
struct PaddedImage {
  i64 h, w;
  bool copied;   // false: the input itself (no border needed)
};

PaddedImage padded_image(const ConvArgs& a) {
  const i64 h = std::max(a.in_h + a.pad_top, (a.out_h - 1) * a.stride_h + a.window_h);
  const i64 w = std::max(a.in_w + a.pad_left, (a.out_w - 1) * a.stride_w + a.window_w);
  return {h, w, a.pad_top != 0 || a.pad_left != 0 || h != a.in_h || w != a.in_w};
}

// dst (batch x p.h x p.w x in_c) = the input inside a zero border.
void pad(Queue& q, const ConvArgs& a, const PaddedImage& p, float* dst) {
  const i64 c = a.in_c, rows = a.batch * p.h, row_floats = p.w * c;
#pragma omp parallel for schedule(static) num_threads(q.cpu_threads()) if (rows * row_floats > (i64(1) << 15))
  for (i64 row = 0; row < rows; ++row) {
    float* out = dst + row * row_floats;
    const i64 n = row / p.h, iy = row % p.h - a.pad_top;
    if (iy < 0 || iy >= a.in_h) {
      std::memset(out, 0, std::size_t(row_floats) * sizeof(float));
      continue;
    }
    const i64 left = a.pad_left * c, inside = a.in_w * c;   // p.w >= pad_left + in_w
    std::memset(out, 0, std::size_t(left) * sizeof(float));
    std::memcpy(out + left, a.input + (n * a.in_h + iy) * a.in_w * c, std::size_t(inside) * sizeof(float));
    std::memset(out + left + inside, 0, std::size_t(row_floats - left - inside) * sizeof(float));
  }
}

}  // namespace

void run_im2col_in_place(Queue& q, const ConvArgs& a) {
  const i64 width = a.window_h * a.window_w * a.in_c, pixels = a.batch * a.out_h * a.out_w;
  const PaddedImage p = padded_image(a);
  std::optional<portkern::detail::ScratchPool::Lease> image_lease;
  const float* image = a.input;
  if (p.copied) {
    image_lease.emplace(lease_floats(q, checked_product({a.batch, p.h, p.w, a.in_c}, conv2d_fn, "the padded image"),
                                     "conv2d scratch (padded image)"));
    image = image_lease->as<float>();
    pad(q, a, p, image_lease->as<float>());
  }
  // Where each output pixel's patch starts in the image.
  portkern::detail::ScratchPool::Lease offsets_lease = q.scratch_pool().lease(
      checked_bytes(pixels, sizeof(i64), conv2d_fn, "patch offsets"), "conv2d scratch (patch offsets)");
  i64* offsets = offsets_lease.as<i64>();
  for (i64 t = 0, pixel = 0; t < a.batch * a.out_h; ++t) {
    const i64 row = (t / a.out_h * p.h + t % a.out_h * a.stride_h) * p.w;
    for (i64 x = 0; x < a.out_w; ++x) offsets[pixel++] = (row + x * a.stride_w) * a.in_c;
  }
  // The filter in panels: packed once by the caller (conv2d_pack_filter), else here.
  GemmPackedA<float> packed_here;
  if (!a.packed_filter) packed_here = gemm_pack_a(q, Op::none, a.out_c, width, a.filter, a.out_c);
  const GemmPackedA<float>& filter = a.packed_filter ? *a.packed_filter : packed_here;
  const i64 run = a.window_w * a.in_c;
  const gemm_impl::cpu_packed::PatchColumns<float> patches{image, offsets, run, p.w * a.in_c - run,
                                                          a.stride_w * a.in_c};
  gemm_impl::cpu_packed::run_prepacked_patches(filter.layout(), filter.data(), pixels, 1.f, patches, 0.f, a.output,
                                               a.out_c, q.cpu_threads(),
                                               gemm_impl::GemmEpilogue<float>{a.bias, a.residual, a.relu});
}

}  // namespace portkern::conv2d_impl
