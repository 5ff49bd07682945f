// The preprocessing of torchvision's ImageNet weights (weights.transforms(), ImageClassification; the same
// as transforms.Compose([Resize(resize), CenterCrop(crop), ToTensor(), Normalize(mean, std)])) on an image
// that PIL opened and converted to RGB:
//   Resize: the shorter side to `resize` pixels, the longer to int(resize * long / short), PIL's bilinear
//     resize with its antialiasing (resize.hpp), 8-bit result;
//   CenterCrop: crop x crop from top = round((height - crop) / 2), left likewise (Python's round: halves to
//     even);
//   ToTensor and Normalize in float32 as torch computes them: (v / 255 - mean[c]) / std[c].
// The result is the crop x crop x 3 floats of one image in the network's NHWC input. resize is 256 for VGG-16
// and ResNet-50's IMAGENET1K_V1 weights, 232 for ResNet-50's IMAGENET1K_V2; crop is 224 for all of them.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "image/image_file.hpp"

namespace portkern::image {

inline constexpr float imagenet_mean[3] = {0.485f, 0.456f, 0.406f};
inline constexpr float imagenet_std[3] = {0.229f, 0.224f, 0.225f};

// torchvision's size after Resize(resize) of a width x height image: {width, height}.
std::pair<std::int64_t, std::int64_t> resized_size(std::int64_t width, std::int64_t height, std::int64_t resize);

// CenterCrop's offset of a crop of `crop` out of `size`: round((size - crop) / 2) with halves to even.
std::int64_t center_crop_offset(std::int64_t size, std::int64_t crop);

// The normalised crop, HWC. An Error when crop > resize (torchvision would pad; never with its weights).
std::vector<float> imagenet_input(const RgbImage& image, std::int64_t resize = 256, std::int64_t crop = 224);

}  // namespace portkern::image
