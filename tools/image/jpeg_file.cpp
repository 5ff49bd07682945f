// JPEG through libjpeg(-turbo)'s decompression API. Its fatal errors return by longjmp to the step that ran
// (libjpeg is C: an exception must not cross it); each step is a function of its own holding only plain C
// values across its setjmp. A premature end of the data, which libjpeg only warns about (it fills the rest
// with grey), is an error here as it is in PIL; the other warnings (extraneous bytes and the like) are
// ignored, as PIL ignores them. Colour follows PIL's JPEG plug-in and convert("RGB"): see image_file.hpp.
#include <cstdio>   // jpeglib.h needs FILE and size_t first
#include <csetjmp>
#include <vector>

#include <jerror.h>
#include <jpeglib.h>

#include "image/decoders.hpp"
#include "portkern/error.hpp"

namespace portkern::image {

namespace {

struct Reader {
  jpeg_decompress_struct info{};
  jpeg_error_mgr errors{};
  std::jmp_buf jump{};
  char message[JMSG_LENGTH_MAX] = {};
  bool started = false;

  Reader() {
    info.err = jpeg_std_error(&errors);
    errors.error_exit = on_error;
    errors.emit_message = on_message;
    info.client_data = this;
  }
  ~Reader() {
    if (started) jpeg_destroy_decompress(&info);
  }
  Reader(const Reader&) = delete;
  Reader& operator=(const Reader&) = delete;

  static void on_error(j_common_ptr common) {
    auto* reader = static_cast<Reader*>(common->client_data);
    common->err->format_message(common, reader->message);
    std::longjmp(reader->jump, 1);
  }
  static void on_message(j_common_ptr common, int level) {
    if (level < 0 && common->err->msg_code == JWRN_JPEG_EOF) on_error(common);   // truncated: fatal
  }
};

bool start(Reader& r, std::FILE* file) {
  if (setjmp(r.jump)) return false;
  jpeg_create_decompress(&r.info);
  r.started = true;
  jpeg_stdio_src(&r.info, file);
  jpeg_read_header(&r.info, TRUE);
  return true;
}

// 1 component: grey; 3: RGB (libjpeg converts YCbCr); 4: CMYK (libjpeg converts YCCK).
bool start_output(Reader& r) {
  if (setjmp(r.jump)) return false;
  const int components = r.info.num_components;
  r.info.out_color_space = components == 1 ? JCS_GRAYSCALE : components == 3 ? JCS_RGB : JCS_CMYK;
  jpeg_start_decompress(&r.info);
  return true;
}

bool read_rows(Reader& r, std::uint8_t* samples, std::size_t stride) {
  if (setjmp(r.jump)) return false;
  while (r.info.output_scanline < r.info.output_height) {
    JSAMPROW row = samples + stride * r.info.output_scanline;
    jpeg_read_scanlines(&r.info, &row, 1);
  }
  jpeg_finish_decompress(&r.info);
  return true;
}

}  // namespace

RgbImage read_jpeg(const std::string& path, std::FILE* file) {
  Reader r;
  auto corrupt = [&] {
    fail(path, std::string("cannot decode the JPEG image (truncated or corrupt?): libjpeg: ") + r.message);
  };
  if (!start(r, file)) corrupt();
  const int components = r.info.num_components;
  if (components != 1 && components != 3 && components != 4)
    fail(path, "a JPEG image of " + std::to_string(components) + " components (1, 3 or 4 are read, as PIL reads)");
  check_dimensions(path, r.info.image_width, r.info.image_height);
  if (!start_output(r)) corrupt();
  const std::size_t width = r.info.output_width, height = r.info.output_height;
  const std::size_t channels = std::size_t(r.info.output_components);
  std::vector<std::uint8_t> samples(width * height * channels);
  if (!read_rows(r, samples.data(), width * channels)) corrupt();

  RgbImage image{std::int64_t(width), std::int64_t(height), std::vector<std::uint8_t>(width * height * 3)};
  for (std::size_t p = 0; p < width * height; ++p) {
    const std::uint8_t* s = samples.data() + p * channels;
    std::uint8_t* out = image.pixels.data() + p * 3;
    if (channels == 1) {
      out[0] = out[1] = out[2] = s[0];
    } else if (channels == 3) {
      out[0] = s[0], out[1] = s[1], out[2] = s[2];
    } else {
      // PIL reads the samples inverted (Adobe's polarity: c = 255 - C) and converts with
      // R = (255 - k) - round(c * (255 - k) / 255), which is round(C * K / 255) of the stored samples.
      for (int c = 0; c < 3; ++c) out[c] = std::uint8_t((s[c] * s[3] + 127) / 255);
    }
  }
  return image;
}

}  // namespace portkern::image
