#include "image/image_file.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <memory>

#include "image/decoders.hpp"
#include "portkern/error.hpp"

namespace portkern::image {

void check_dimensions(const std::string& path, std::int64_t width, std::int64_t height) {
  if (width < 1 || height < 1)
    fail(path, "the image has no pixels (" + std::to_string(width) + " x " + std::to_string(height) + ")");
  if (width > max_pixels / height)
    fail(path, "the image is " + std::to_string(width) + " x " + std::to_string(height) +
                   " pixels, more than the " + std::to_string(max_pixels) + " decoded at most");
}

RgbImage read_image(const std::string& path) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) fail(path, "a folder, not an image file");
  const std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!file) fail(path, std::string("cannot open the image: ") + std::strerror(errno));
  unsigned char head[8] = {};
  const std::size_t got = std::fread(head, 1, sizeof head, file.get());
  std::rewind(file.get());
  static constexpr unsigned char png[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  if (got == sizeof head && std::memcmp(head, png, sizeof png) == 0) return read_png(path, file.get());
  if (got >= 3 && head[0] == 0xff && head[1] == 0xd8 && head[2] == 0xff) return read_jpeg(path, file.get());
  fail(path, got == 0 ? "an empty file, not an image" : "neither a PNG nor a JPEG image (by its first bytes)");
}

}  // namespace portkern::image
