// The two decoders behind read_image (image_file.hpp): each reads an open file whose signature has been
// checked, and throws portkern::Error "<path>: ..." on anything it cannot decode.
#pragma once

#include <cstdio>
#include <string>

#include "image/image_file.hpp"

namespace portkern::image {

RgbImage read_png(const std::string& path, std::FILE* file);
RgbImage read_jpeg(const std::string& path, std::FILE* file);

}  // namespace portkern::image
