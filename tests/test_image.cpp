// `portkern run --image`'s image module (tools/image/): decoding, PIL's resize and torchvision's ImageNet
// preprocessing, against
//   - what Pillow itself makes of the small images in tests/data/ (images.txt, written with them by
//     tests/data/make_image_data.py in the project's venv): decoded pixels, resizes and torchvision's
//     Resize + CenterCrop, all to the bit;
//   - a float64 resize written here from the definition (a triangle filter widened by the scale when
//     shrinking, normalised, over every input sample; no fixed point, no rounding between or after the passes),
//     which the 8-bit result must be within one level of (PIL rounds each pass to 8 bits: at most half a level
//     each);
//   - torchvision's ToTensor and Normalize, in float64 and as torch computes them in float32.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>

#include "image/image_file.hpp"
#include "image/imagenet_transform.hpp"
#include "image/resize.hpp"
#include "testing.hpp"

namespace portkern::image {
namespace {

const std::string data_dir = std::string(PORTKERN_SOURCE_DIR) + "/tests/data/";

// One line of images.txt: its kind, the file, the numbers after it and the pixels (hex, the last token).
struct Expected {
  std::string kind, file;
  std::vector<std::int64_t> numbers;
  std::vector<std::uint8_t> pixels;
};

std::vector<Expected> expected(const std::string& kind) {
  std::ifstream in(data_dir + "images.txt");
  EXPECT_TRUE(in) << data_dir << "images.txt";
  std::vector<Expected> lines;
  for (std::string line; std::getline(in, line);) {
    std::istringstream words(line);
    std::vector<std::string> w;
    for (std::string word; words >> word;) w.push_back(word);
    if (w.size() < 3 || w[0] != kind) continue;
    Expected e{w[0], w[1], {}, {}};
    for (std::size_t i = 2; i + 1 < w.size(); ++i) e.numbers.push_back(std::stoll(w[i]));
    for (std::size_t i = 0; i + 1 < w.back().size(); i += 2)
      e.pixels.push_back(std::uint8_t(std::stoi(w.back().substr(i, 2), nullptr, 16)));
    lines.push_back(e);
  }
  EXPECT_FALSE(lines.empty()) << "no '" << kind << "' lines in images.txt";
  return lines;
}

// How many bytes differ, and the first one that does.
::testing::AssertionResult same_pixels(const std::vector<std::uint8_t>& got, const std::vector<std::uint8_t>& want) {
  if (got.size() != want.size())
    return ::testing::AssertionFailure() << got.size() << " bytes, expected " << want.size();
  std::size_t differ = 0, first = 0;
  for (std::size_t i = 0; i < got.size(); ++i)
    if (got[i] != want[i] && differ++ == 0) first = i;
  if (differ == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << differ << " of " << got.size() << " bytes differ; first at byte " << first
                                       << " (pixel " << first / 3 << ", channel " << first % 3 << "): "
                                       << int(got[first]) << ", expected " << int(want[first]);
}

RgbImage random_image(std::int64_t width, std::int64_t height, unsigned seed) {
  std::mt19937 rng(seed);
  RgbImage image{width, height, std::vector<std::uint8_t>(std::size_t(width * height * 3))};
  for (auto& v : image.pixels) v = std::uint8_t(rng() & 255);
  return image;
}

// ---- the float64 reference ------------------------------------------------------------------------------

// weights[o][i]: output o's share of input i, for a resize from `in` to `out` samples.
std::vector<std::vector<double>> exact_weights(std::int64_t in, std::int64_t out) {
  const double scale = double(in) / double(out), widen = std::max(scale, 1.0);
  std::vector<std::vector<double>> weights(static_cast<std::size_t>(out), std::vector<double>(static_cast<std::size_t>(in)));
  for (std::int64_t o = 0; o < out; ++o) {
    const double center = (double(o) + 0.5) * scale;   // in input coordinates, pixel i spanning [i, i + 1)
    double sum = 0;
    for (std::int64_t i = 0; i < in; ++i)
      sum += weights[o][i] = std::max(0.0, 1.0 - std::abs(double(i) + 0.5 - center) / widen);
    for (double& w : weights[o]) w /= sum;
  }
  return weights;
}

// The resize in float64: out_height x out_width x 3, unrounded.
std::vector<double> exact_resize(const RgbImage& image, std::int64_t out_width, std::int64_t out_height) {
  const auto wx = exact_weights(image.width, out_width), wy = exact_weights(image.height, out_height);
  std::vector<double> across(std::size_t(image.height * out_width * 3)), out(std::size_t(out_height * out_width * 3));
  for (std::int64_t y = 0; y < image.height; ++y)
    for (std::int64_t x = 0; x < out_width; ++x)
      for (std::int64_t i = 0; i < image.width; ++i)
        for (int c = 0; c < 3; ++c)
          across[std::size_t((y * out_width + x) * 3 + c)] +=
              wx[x][i] * image.pixels[std::size_t((y * image.width + i) * 3 + c)];
  for (std::int64_t y = 0; y < out_height; ++y)
    for (std::int64_t i = 0; i < image.height; ++i)
      for (std::int64_t v = 0; v < out_width * 3; ++v)
        out[std::size_t(y * out_width * 3 + v)] += wy[y][i] * across[std::size_t(i * out_width * 3 + v)];
  return out;
}

constexpr double mean64[3] = {0.485, 0.456, 0.406}, std64[3] = {0.229, 0.224, 0.225};

// ---- decoding ---------------------------------------------------------------------------------------------

TEST(ImageDecode, MatchesPillowsConvertToRgb) {
  for (const Expected& e : expected("decode")) {
    SCOPED_TRACE(e.file);
    const RgbImage image = read_image(data_dir + e.file);
    EXPECT_EQ(image.width, e.numbers.at(0));
    EXPECT_EQ(image.height, e.numbers.at(1));
    EXPECT_TRUE(same_pixels(image.pixels, e.pixels));
  }
}

TEST(ImageDecode, CmykIsPillowsConversion) {
  // PIL: R = (255 - k) - round(c * (255 - k) / 255) of the inverted samples c = 255 - C, k = 255 - K; the
  // decoder's closed form round(C * K / 255), over every pair.
  for (int C = 0; C < 256; ++C)
    for (int K = 0; K < 256; ++K) {
      const int c = 255 - C, k = 255 - K;
      const int pil = (255 - k) - int(std::lround(double(c) * (255 - k) / 255.0));
      ASSERT_EQ((C * K + 127) / 255, pil) << "C " << C << " K " << K;
    }
}

// A copy of the first `bytes` bytes of a test image, in a temporary folder.
std::string truncated(const std::string& file, std::size_t bytes) {
  std::ifstream in(data_dir + file, std::ios::binary);
  std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string path = (std::filesystem::temp_directory_path() / ("portkern_truncated_" + file)).string();
  std::ofstream(path, std::ios::binary).write(data.data(), std::streamsize(std::min(bytes, data.size())));
  return path;
}

TEST(ImageDecode, RejectsWhatItCannotRead) {
  EXPECT_PORTKERN_ERROR(read_image(data_dir + "grey16.png"), "grey16.png: a 16-bit greyscale PNG");
  EXPECT_PORTKERN_ERROR(read_image(data_dir + "huge.png"), "huge.png: the image is 20000 x 20000 pixels, more than");
  EXPECT_PORTKERN_ERROR(read_image(data_dir + "huge.jpg"), "huge.jpg: the image is 60000 x 60000 pixels, more than");
  EXPECT_PORTKERN_ERROR(read_image(data_dir + "missing.png"), "missing.png: cannot open the image: No such file");
  EXPECT_PORTKERN_ERROR(read_image(data_dir), "a folder, not an image file");
  EXPECT_PORTKERN_ERROR(read_image(data_dir + "make_image_data.py"), "neither a PNG nor a JPEG image");
  EXPECT_PORTKERN_ERROR(read_image(truncated("rgb.png", 0)), "an empty file, not an image");
  EXPECT_PORTKERN_ERROR(read_image(truncated("rgb.png", 5)), "neither a PNG nor a JPEG image");
  for (std::size_t bytes : {20, 60, 2000, 3500})
    EXPECT_PORTKERN_ERROR(read_image(truncated("rgb.png", bytes)), "cannot decode the PNG image (truncated or corrupt?)");
  for (std::size_t bytes : {3, 100, 700, 1400})
    EXPECT_PORTKERN_ERROR(read_image(truncated("rgb.jpg", bytes)), "cannot decode the JPEG image (truncated or corrupt?)");
}

// ---- PIL's resize -----------------------------------------------------------------------------------------

TEST(ImageResize, MatchesPillowToTheBit) {
  for (const Expected& e : expected("resize")) {
    SCOPED_TRACE(e.file + " to " + std::to_string(e.numbers.at(0)) + " x " + std::to_string(e.numbers.at(1)));
    const RgbImage out = resize_bilinear(read_image(data_dir + e.file), e.numbers.at(0), e.numbers.at(1));
    EXPECT_TRUE(same_pixels(out.pixels, e.pixels));
  }
}

TEST(ImageResize, WithinOneLevelOfTheFloat64Resize) {
  // Sizes that shrink, enlarge, change one direction only, and run either pass first (tall images whose
  // height shrinks by more than twice the width: vertical first).
  const std::vector<std::array<std::int64_t, 4>> cases = {
      {40, 30, 13, 11}, {40, 30, 57, 43}, {40, 30, 40, 11}, {40, 30, 13, 30}, {31, 97, 20, 33}, {9, 120, 7, 17},
      {120, 9, 33, 4},  {300, 200, 37, 29}, {17, 5, 256, 341}, {2, 300, 5, 38}, {1, 1, 5, 3}};
  for (const auto& [w, h, out_w, out_h] : cases) {
    SCOPED_TRACE(std::to_string(w) + " x " + std::to_string(h) + " to " + std::to_string(out_w) + " x " +
                 std::to_string(out_h));
    const RgbImage image = random_image(w, h, unsigned(w * 1000 + h));
    const RgbImage got = resize_bilinear(image, out_w, out_h);
    const std::vector<double> want = exact_resize(image, out_w, out_h);
    // One pass: the final rounding's half level; two: the first pass's half level carried through too. The
    // fixed-point weights add less than 1e-3.
    const double bound = (out_w != w && out_h != h ? 1.0 : 0.5) + 1e-3;
    double worst = 0, sum = 0;
    for (std::size_t i = 0; i < want.size(); ++i) {
      worst = std::max(worst, std::abs(got.pixels[i] - want[i]));
      sum += got.pixels[i] - want[i];
    }
    EXPECT_LE(worst, bound);
    EXPECT_LT(std::abs(sum / double(want.size())), 0.1) << "a bias: the rounding is not to nearest";
  }
}

TEST(ImageResize, WindowIsTheCropOfTheWhole) {
  std::mt19937 rng(3);
  for (int trial = 0; trial < 200; ++trial) {
    const std::int64_t w = 1 + rng() % 60, h = 1 + rng() % 60, out_w = 1 + rng() % 80, out_h = 1 + rng() % 80;
    const std::int64_t width = 1 + rng() % out_w, height = 1 + rng() % out_h;
    const std::int64_t x0 = rng() % (out_w - width + 1), y0 = rng() % (out_h - height + 1);
    const RgbImage image = random_image(w, h, unsigned(trial));
    const RgbImage whole = resize_bilinear(image, out_w, out_h);
    const RgbImage window = resize_bilinear_window(image, out_w, out_h, x0, y0, width, height);
    ASSERT_EQ(window.width, width);
    ASSERT_EQ(window.height, height);
    std::vector<std::uint8_t> crop;
    for (std::int64_t y = y0; y < y0 + height; ++y)
      crop.insert(crop.end(), whole.pixels.begin() + (y * out_w + x0) * 3, whole.pixels.begin() + (y * out_w + x0 + width) * 3);
    ASSERT_TRUE(same_pixels(window.pixels, crop)) << w << " x " << h << " to " << out_w << " x " << out_h << ", window "
                                                  << x0 << ", " << y0 << ", " << width << " x " << height;
  }
  const RgbImage image = random_image(4, 4, 1);
  EXPECT_PORTKERN_ERROR(resize_bilinear_window(image, 8, 8, 4, 0, 5, 8), "x0 + width = 9 must be <= out_width");
  EXPECT_PORTKERN_ERROR(resize_bilinear(image, 0, 8), "out_width * out_height = 0 must be >= 1");
}

// ---- torchvision's preprocessing ------------------------------------------------------------------------

TEST(ImageNetTransform, SizesAndOffsetsAreTorchvisions) {
  using Size = std::pair<std::int64_t, std::int64_t>;
  EXPECT_EQ(resized_size(40, 30, 256), Size(341, 256));     // int(256 * 40 / 30) = int(341.33)
  EXPECT_EQ(resized_size(30, 40, 256), Size(256, 341));
  EXPECT_EQ(resized_size(500, 375, 256), Size(341, 256));
  EXPECT_EQ(resized_size(500, 375, 232), Size(309, 232));   // int(309.33)
  EXPECT_EQ(resized_size(300, 300, 256), Size(256, 256));
  EXPECT_EQ(resized_size(1, 4000, 256), Size(256, 1024000));
  EXPECT_EQ(resized_size(3, 2, 256), Size(384, 256));
  EXPECT_EQ(center_crop_offset(256, 224), 16);
  EXPECT_EQ(center_crop_offset(341, 224), 58);   // round(58.5) = 58: Python rounds halves to even
  EXPECT_EQ(center_crop_offset(343, 224), 60);   // round(59.5) = 60
  EXPECT_EQ(center_crop_offset(224, 224), 0);
}

TEST(ImageNetTransform, MatchesTorchvisionOnPillowImages) {
  for (const Expected& e : expected("transform")) {
    const std::int64_t resize = e.numbers.at(0), crop = e.numbers.at(1), step = e.numbers.at(2);
    SCOPED_TRACE(e.file + " resize " + std::to_string(resize) + " crop " + std::to_string(crop));
    const std::vector<float> got = imagenet_input(read_image(data_dir + e.file), resize, crop);
    ASSERT_EQ(got.size(), std::size_t(crop * crop * 3));
    const std::int64_t per_row = (crop + step - 1) / step;
    ASSERT_EQ(e.pixels.size(), std::size_t(per_row * per_row * 3));
    double worst = 0;
    std::size_t differ_from_torch = 0;
    for (std::int64_t y = 0; y < crop; y += step)
      for (std::int64_t x = 0; x < crop; x += step)
        for (int c = 0; c < 3; ++c) {
          const std::uint8_t v = e.pixels[std::size_t(((y / step) * per_row + x / step) * 3 + c)];
          const float ours = got[std::size_t((y * crop + x) * 3 + c)];
          worst = std::max(worst, std::abs(double(ours) - (v / 255.0 - mean64[c]) / std64[c]));
          // torch: uint8 -> float32, / 255, - mean, / std, each in float32
          differ_from_torch += ours != (float(v) / 255.0f - float(mean64[c])) / float(std64[c]);
        }
    EXPECT_LE(worst, 1e-6) << "against the float64 normalisation of Pillow's 8-bit crop";
    EXPECT_EQ(differ_from_torch, 0u) << "values differ from torch's float32 ToTensor + Normalize";
  }
}

TEST(ImageNetTransform, WithinOneLevelOfTheFloat64Pipeline) {
  // The whole pipeline in float64 (the reference resize, the crop, the normalisation) against ours: one 8-bit
  // level at most, 1 / (255 * 0.224) = 0.0175 after normalisation (green's deviation is the smallest).
  struct Case { RgbImage image; std::int64_t resize; };
  const std::vector<Case> cases = {{read_image(data_dir + "rgb.png"), 256}, {read_image(data_dir + "rgb.jpg"), 232},
                                   {random_image(500, 375, 1), 256}, {random_image(230, 700, 2), 256},
                                   {random_image(256, 300, 3), 256}};
  for (const Case& k : cases) {
    SCOPED_TRACE(std::to_string(k.image.width) + " x " + std::to_string(k.image.height));
    const auto [w, h] = resized_size(k.image.width, k.image.height, k.resize);
    const std::vector<double> resized = exact_resize(k.image, w, h);
    const std::int64_t top = center_crop_offset(h, 224), left = center_crop_offset(w, 224);
    const std::vector<float> got = imagenet_input(k.image, k.resize, 224);
    double worst = 0;
    for (std::int64_t y = 0; y < 224; ++y)
      for (std::int64_t x = 0; x < 224; ++x)
        for (int c = 0; c < 3; ++c) {
          const double v = resized[std::size_t(((top + y) * w + left + x) * 3 + c)];
          worst = std::max(worst, std::abs(got[std::size_t((y * 224 + x) * 3 + c)] - (v / 255.0 - mean64[c]) / std64[c]));
        }
    EXPECT_LE(worst, (1.0 + 1e-3) / (255.0 * 0.224));
  }
}

TEST(ImageNetTransform, RejectsACropLargerThanTheResize) {
  EXPECT_PORTKERN_ERROR(imagenet_input(random_image(8, 8, 1), 200, 224), "argument resize = 200 must be >= crop = 224");
}

}  // namespace
}  // namespace portkern::image
