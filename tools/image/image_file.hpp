// Image files for `portkern run --image` (not part of the library): PNG through libpng and JPEG through
// libjpeg(-turbo), decoded to 8-bit RGB as PIL's Image.open(path).convert("RGB") gives it, which is what
// torchvision's ImageNet weights were evaluated on:
//   grey (1, 2, 4, 8 bits) -> R = G = B; palette -> its colours; an alpha channel or a tRNS chunk is dropped
//   (not composited); 16-bit RGB(A) and grey+alpha -> the high byte of each sample (PIL's "RGB;16B");
//   JPEG grey -> R = G = B, YCbCr -> RGB (libjpeg's conversion, as in PIL), CMYK and YCCK -> PIL's
//   CMYK -> RGB (Adobe's inverted polarity assumed, as PIL always does). Gamma, ICC profiles and EXIF
//   orientation are ignored, as PIL's open() ignores them.
// Rejected with an Error naming the file: a missing or unreadable file, neither PNG nor JPEG, truncated or
// corrupt data, more pixels than max_pixels, and 16-bit greyscale PNGs (PIL's convert("RGB") clips their
// values at 255 instead of scaling them: no conversion worth reproducing).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace portkern::image {

// 8-bit RGB: rows top to bottom, pixels left to right, R, G, B interleaved.
struct RgbImage {
  std::int64_t width = 0, height = 0;
  std::vector<std::uint8_t> pixels;  // width * height * 3
};

// PIL's decompression-bomb limit (2 * Image.MAX_IMAGE_PIXELS, beyond which it refuses a file): 537 MB as RGB.
inline constexpr std::int64_t max_pixels = 178956970;

// Reads a PNG or JPEG file (told apart by its first bytes, not its name).
RgbImage read_image(const std::string& path);

// Throws unless width x height is a decodable size: both >= 1 and at most max_pixels together.
void check_dimensions(const std::string& path, std::int64_t width, std::int64_t height);

}  // namespace portkern::image
