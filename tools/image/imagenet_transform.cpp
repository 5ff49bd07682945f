#include "image/imagenet_transform.hpp"

#include <cmath>

#include "image/resize.hpp"
#include "portkern/error.hpp"

namespace portkern::image {

std::pair<std::int64_t, std::int64_t> resized_size(std::int64_t width, std::int64_t height, std::int64_t resize) {
  const std::int64_t shorter = std::min(width, height), longer = std::max(width, height);
  // int(resize * long / short) in Python: a double division of exact integers, truncated.
  const auto other = std::int64_t(double(resize * longer) / double(shorter));
  return width <= height ? std::pair{resize, other} : std::pair{other, resize};
}

std::int64_t center_crop_offset(std::int64_t size, std::int64_t crop) {
  return std::int64_t(std::nearbyint(double(size - crop) / 2.0));   // the default rounding: halves to even
}

std::vector<float> imagenet_input(const RgbImage& image, std::int64_t resize, std::int64_t crop) {
  constexpr const char* where = "portkern::image::imagenet_input";
  require(crop >= 1, where, "crop", crop, ">= 1");
  require(resize >= crop, where, "resize", resize, ">= crop = " + std::to_string(crop));
  const auto [width, height] = resized_size(image.width, image.height, resize);
  const RgbImage cropped = resize_bilinear_window(image, width, height, center_crop_offset(width, crop),
                                                  center_crop_offset(height, crop), crop, crop);
  std::vector<float> out(cropped.pixels.size());
  for (std::size_t i = 0; i < out.size(); ++i)
    out[i] = (float(cropped.pixels[i]) / 255.0f - imagenet_mean[i % 3]) / imagenet_std[i % 3];
  return out;
}

}  // namespace portkern::image
