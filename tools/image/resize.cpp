#include "image/resize.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "portkern/error.hpp"

namespace portkern::image {

namespace {

constexpr int precision_bits = 22;   // PIL's: 32 bits less 8 for the sample and 2 for sums above 1

// The taps of output positions [first, first + count) of a resize from `in` to `out` samples: output i reads
// inputs [start[i], start[i] + taps[i]) with the fixed-point weights weight[i * width + k].
struct Taps {
  std::vector<std::int64_t> start;
  std::vector<int> taps;
  std::vector<std::int32_t> weight;
  int width = 0;   // weights per output position (the most any has)
  std::int64_t first_input() const { return start.front(); }
  std::int64_t end_input() const { return start.back() + taps.back(); }   // both ends grow with the position
};

Taps make_taps(std::int64_t in, std::int64_t out, std::int64_t first, std::int64_t count) {
  const double scale = double(in) / double(out);
  const double widen = std::max(scale, 1.0);   // > 1 when shrinking: the antialiasing
  const double support = widen;                // the triangle's half-width, 1 input sample, widened
  const double inverse = 1.0 / widen;
  Taps t;
  t.width = int(std::ceil(support)) * 2 + 1;
  t.start.resize(std::size_t(count));
  t.taps.resize(std::size_t(count));
  t.weight.assign(std::size_t(count * t.width), 0);
  std::vector<double> w(std::size_t(t.width));
  for (std::int64_t i = 0; i < count; ++i) {
    const double center = (double(first + i) + 0.5) * scale;
    // PIL rounds the window's ends by adding 0.5 and truncating toward zero (the start is clamped at 0).
    const std::int64_t lo = std::max<std::int64_t>(std::int64_t(center - support + 0.5), 0);
    const std::int64_t hi = std::min<std::int64_t>(std::int64_t(center + support + 0.5), in);
    const int n = int(hi - lo);
    double sum = 0;
    for (int k = 0; k < n; ++k) {
      const double x = std::abs((double(lo + k) - center + 0.5) * inverse);
      w[std::size_t(k)] = x < 1.0 ? 1.0 - x : 0.0;
      sum += w[std::size_t(k)];
    }
    for (int k = 0; k < n; ++k) {
      const double normalised = sum != 0.0 ? w[std::size_t(k)] / sum : w[std::size_t(k)];
      t.weight[std::size_t(i * t.width + k)] = std::int32_t(0.5 + normalised * double(1 << precision_bits));
    }
    t.start[std::size_t(i)] = lo;
    t.taps[std::size_t(i)] = n;
  }
  return t;
}

// A plane of RGB pixels seen along one direction: `lines` lines of samples; pixel (line, s) at
// data[(line * line_step + s * sample_step) * 3].
struct Lines {
  std::int64_t lines, line_step, sample_step;
};

// One pass: out(line, i) = sum_k in(line, t.start[i] - offset + k) * weight, rounded to 8 bits.
void resample(const std::uint8_t* in, Lines in_lines, std::uint8_t* out, Lines out_lines, const Taps& t,
              std::int64_t offset) {
  for (std::int64_t line = 0; line < in_lines.lines; ++line)
    for (std::size_t i = 0; i < t.taps.size(); ++i) {
      const std::int32_t* w = t.weight.data() + i * std::size_t(t.width);
      const std::uint8_t* p = in + (line * in_lines.line_step + (t.start[i] - offset) * in_lines.sample_step) * 3;
      std::int32_t s0 = 1 << (precision_bits - 1), s1 = s0, s2 = s0;   // the rounding half
      for (int k = 0; k < t.taps[i]; ++k, p += in_lines.sample_step * 3)
        s0 += p[0] * w[k], s1 += p[1] * w[k], s2 += p[2] * w[k];
      std::uint8_t* o = out + (line * out_lines.line_step + std::int64_t(i) * out_lines.sample_step) * 3;
      o[0] = std::uint8_t(std::clamp(s0 >> precision_bits, 0, 255));
      o[1] = std::uint8_t(std::clamp(s1 >> precision_bits, 0, 255));
      o[2] = std::uint8_t(std::clamp(s2 >> precision_bits, 0, 255));
    }
}

RgbImage crop(const RgbImage& image, std::int64_t x0, std::int64_t y0, std::int64_t width, std::int64_t height) {
  RgbImage out{width, height, std::vector<std::uint8_t>(std::size_t(width * height * 3))};
  for (std::int64_t y = 0; y < height; ++y)
    std::copy_n(image.pixels.data() + ((y0 + y) * image.width + x0) * 3, width * 3, out.pixels.data() + y * width * 3);
  return out;
}

}  // namespace

RgbImage resize_bilinear_window(const RgbImage& image, std::int64_t out_width, std::int64_t out_height,
                                std::int64_t x0, std::int64_t y0, std::int64_t width, std::int64_t height) {
  constexpr const char* where = "portkern::image::resize_bilinear_window";
  require(image.width >= 1 && image.height >= 1, where, "image size", image.width * image.height, ">= 1");
  require(out_width >= 1 && out_height >= 1, where, "out_width * out_height", out_width * out_height, ">= 1");
  require(x0 >= 0 && width >= 1 && x0 + width <= out_width, where, "x0 + width", x0 + width, "<= out_width");
  require(y0 >= 0 && height >= 1 && y0 + height <= out_height, where, "y0 + height", y0 + height, "<= out_height");
  const bool across = out_width != image.width, down = out_height != image.height;
  if (!across && !down) return crop(image, x0, y0, width, height);
  const Taps columns = across ? make_taps(image.width, out_width, x0, width) : Taps{};
  const Taps rows = down ? make_taps(image.height, out_height, y0, height) : Taps{};
  if (!down) {
    RgbImage out{width, height, std::vector<std::uint8_t>(std::size_t(width * height * 3))};
    resample(image.pixels.data() + y0 * image.width * 3, {height, image.width, 1}, out.pixels.data(),
             {height, width, 1}, columns, 0);
    return out;
  }
  if (!across) {
    RgbImage out{width, height, std::vector<std::uint8_t>(std::size_t(width * height * 3))};
    resample(image.pixels.data() + x0 * 3, {width, 1, image.width}, out.pixels.data(), {width, 1, width}, rows, 0);
    return out;
  }
  // Both: Pillow's order, decided on the whole image's sizes.
  const bool vertical_first =
      image.height - out_height > 0 && image.height - out_height > (image.width - out_width) * 2;
  RgbImage out{width, height, std::vector<std::uint8_t>(std::size_t(width * height * 3))};
  if (!vertical_first) {   // the input rows under the window's vertical taps, across; then down
    const std::int64_t first = rows.first_input(), count = rows.end_input() - first;
    std::vector<std::uint8_t> middle(std::size_t(width * count * 3));
    resample(image.pixels.data() + first * image.width * 3, {count, image.width, 1}, middle.data(),
             {count, width, 1}, columns, 0);
    resample(middle.data(), {width, 1, width}, out.pixels.data(), {width, 1, width}, rows, first);
  } else {                 // the input columns under the window's horizontal taps, down; then across
    const std::int64_t first = columns.first_input(), count = columns.end_input() - first;
    std::vector<std::uint8_t> middle(std::size_t(count * height * 3));
    resample(image.pixels.data() + first * 3, {count, 1, image.width}, middle.data(), {count, 1, count}, rows, 0);
    resample(middle.data(), {height, count, 1}, out.pixels.data(), {height, width, 1}, columns, first);
  }
  return out;
}

}  // namespace portkern::image
