// PNG through libpng's reading API. libpng reports errors by longjmp (it is C: an exception must not cross
// it), so each step that calls it runs in a function of its own holding only plain C values across its
// setjmp, and the buffers are allocated between the steps. Warnings (unknown or damaged ancillary chunks,
// which PIL ignores too) are dropped.
#include <png.h>

#include <csetjmp>
#include <cstdio>
#include <vector>

#include "image/decoders.hpp"
#include "portkern/error.hpp"

namespace portkern::image {

namespace {

struct Reader {
  png_structp png = nullptr;
  png_infop info = nullptr;
  char message[256] = {};
  Reader() {
    png = png_create_read_struct(PNG_LIBPNG_VER_STRING, this, on_error, on_warning);
    if (png) info = png_create_info_struct(png);
  }
  ~Reader() { png_destroy_read_struct(&png, info ? &info : nullptr, nullptr); }
  Reader(const Reader&) = delete;
  Reader& operator=(const Reader&) = delete;

  static void on_error(png_structp png, png_const_charp message) {
    auto* reader = static_cast<Reader*>(png_get_error_ptr(png));
    std::snprintf(reader->message, sizeof reader->message, "%s", message);
    png_longjmp(png, 1);
  }
  static void on_warning(png_structp, png_const_charp) {}
};

bool read_header(Reader& r, std::FILE* file) {
  if (setjmp(png_jmpbuf(r.png))) return false;
  png_init_io(r.png, file);
  png_read_info(r.png, r.info);
  return true;
}

// 8 bits per sample whatever the file's depth; grey, grey + alpha, RGB or RGBA.
bool set_transforms(Reader& r) {
  if (setjmp(png_jmpbuf(r.png))) return false;
  png_set_expand(r.png);     // palette -> RGB(A); grey of 1, 2, 4 bits -> 8 bits (x255, x85, x17); tRNS -> alpha
  png_set_strip_16(r.png);   // 16 bits -> the high byte, as PIL reads 16-bit RGB(A) and grey + alpha
  png_set_interlace_handling(r.png);
  png_read_update_info(r.png, r.info);
  return true;
}

bool read_rows(Reader& r, png_bytep* rows) {
  if (setjmp(png_jmpbuf(r.png))) return false;
  png_read_image(r.png, rows);
  png_read_end(r.png, nullptr);
  return true;
}

}  // namespace

RgbImage read_png(const std::string& path, std::FILE* file) {
  Reader r;
  if (!r.png || !r.info) fail(path, "libpng could not start (out of memory?)");
  auto corrupt = [&] {
    fail(path, std::string("cannot decode the PNG image (truncated or corrupt?): libpng: ") + r.message);
  };
  if (!read_header(r, file)) corrupt();
  const png_uint_32 width = png_get_image_width(r.png, r.info), height = png_get_image_height(r.png, r.info);
  if (png_get_bit_depth(r.png, r.info) == 16 && png_get_color_type(r.png, r.info) == PNG_COLOR_TYPE_GRAY)
    fail(path, "a 16-bit greyscale PNG: PIL's convert(\"RGB\"), after which torchvision's weights were "
               "evaluated, clips its values at 255 instead of scaling them; convert the image to 8 bits first");
  check_dimensions(path, width, height);
  if (!set_transforms(r)) corrupt();
  const int channels = png_get_channels(r.png, r.info);
  const std::size_t stride = png_get_rowbytes(r.png, r.info);
  if (channels < 1 || channels > 4 || stride != std::size_t(width) * std::size_t(channels))
    fail(path, "unexpected PNG layout after libpng's conversion (" + std::to_string(channels) + " channels)");
  std::vector<std::uint8_t> samples(stride * height);
  std::vector<png_bytep> rows(height);
  for (png_uint_32 y = 0; y < height; ++y) rows[y] = samples.data() + stride * y;
  if (!read_rows(r, rows.data())) corrupt();

  RgbImage image{width, height, std::vector<std::uint8_t>(std::size_t(width) * height * 3)};
  const bool grey = channels <= 2;   // grey or grey + alpha; else RGB or RGBA (alpha dropped, as PIL does)
  for (std::size_t p = 0; p < std::size_t(width) * height; ++p)
    for (std::size_t c = 0; c < 3; ++c) image.pixels[p * 3 + c] = samples[p * std::size_t(channels) + (grey ? 0 : c)];
  return image;
}

}  // namespace portkern::image
