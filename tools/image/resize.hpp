// PIL's bilinear resize of an 8-bit RGB image (Image.resize(size, Image.BILINEAR)), which is what
// torchvision's Resize does to a PIL image, reproduced to the bit (Pillow 13, the version pinned in
// tools/tuning/requirements.txt): a triangle filter widened by the scale when shrinking (PIL's antialiasing:
// every input pixel under the output pixel's footprint counts), weights normalised to sum 1 and rounded to
// 22-bit fixed point, one pass per direction, each rounded to 8 bits. A direction whose size does not change
// is not resampled. The horizontal pass goes first unless the height shrinks by more pixels than twice the
// width does (Pillow >= 13's rule; older Pillow always goes horizontal first, which can differ by one 8-bit
// level at some pixels of images more than twice as tall as wide).
#pragma once

#include <cstdint>

#include "image/image_file.hpp"

namespace portkern::image {

// The window [x0, x0 + width) x [y0, y0 + height) of `image` resized to out_width x out_height: the same
// pixels as resizing all of it and cropping, without computing the rest (each output pixel depends only on
// its own position and the order of the passes). Sizes must be >= 1 and the window inside the output.
RgbImage resize_bilinear_window(const RgbImage& image, std::int64_t out_width, std::int64_t out_height,
                                std::int64_t x0, std::int64_t y0, std::int64_t width, std::int64_t height);

// All of it.
inline RgbImage resize_bilinear(const RgbImage& image, std::int64_t out_width, std::int64_t out_height) {
  return resize_bilinear_window(image, out_width, out_height, 0, 0, out_width, out_height);
}

}  // namespace portkern::image
