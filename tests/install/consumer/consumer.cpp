// A program outside the portkern tree: it finds the installed library (find_package or pkg-config), multiplies
// two matrices and convolves an image on the CPU, and checks both against float64 loops. Exit 0 when right.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

#include <portkern/portkern.hpp>

namespace {

std::vector<float> random_values(std::size_t count, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> values(count);
  for (float& v : values) v = dist(rng);
  return values;
}

// Largest |got - want| / (|want| + 1) over the elements; infinity when any is NaN (the outputs start as NaN).
double worst_error(const std::vector<float>& got, const std::vector<double>& want) {
  double worst = 0;
  for (std::size_t i = 0; i < want.size(); ++i) {
    const double e = std::fabs(double(got[i]) - want[i]) / (std::fabs(want[i]) + 1);
    if (!(e <= worst)) worst = std::isnan(e) ? INFINITY : e;
  }
  return worst;
}

bool check_gemm(portkern::Queue& queue) {
  const std::int64_t m = 37, n = 29, k = 53;   // column-major, C = A * B
  const auto a = random_values(m * k, 1), b = random_values(k * n, 2);
  portkern::Buffer<float> da(queue.device(), m * k), db(queue.device(), k * n), dc(queue.device(), m * n);
  da.upload(queue, a);
  db.upload(queue, b);
  dc.upload(queue, std::vector<float>(std::size_t(m * n), NAN));   // poisoned: beta = 0 must overwrite it
  portkern::gemm(queue, portkern::Op::none, portkern::Op::none, m, n, k, 1.0f, da.data(), m, db.data(), k, 0.0f,
                 dc.data(), m);
  std::vector<double> want(m * n, 0.0);
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t l = 0; l < k; ++l)
      for (std::int64_t i = 0; i < m; ++i) want[i + j * m] += double(a[i + l * m]) * b[l + j * k];
  const double error = worst_error(dc.download(queue), want);
  std::printf("gemm %lldx%lldx%lld: max error %.2e\n", (long long)m, (long long)n, (long long)k, error);
  return error < 1e-4;
}

bool check_conv2d(portkern::Queue& queue) {
  portkern::Conv2dDesc desc;   // NHWC input, RSCK filter, 3x3, padding 1
  desc.in_h = 11, desc.in_w = 13, desc.in_c = 5, desc.out_c = 7, desc.window_h = desc.window_w = 3;
  desc = portkern::conv2d_complete(portkern::with_padding(desc, portkern::Padding::same));
  const auto input = random_values(desc.in_h * desc.in_w * desc.in_c, 3);
  const auto filter = random_values(9 * desc.in_c * desc.out_c, 4);
  const std::int64_t outputs = desc.out_h * desc.out_w * desc.out_c;
  portkern::Buffer<float> di(queue.device(), std::int64_t(input.size())), df(queue.device(), std::int64_t(filter.size())),
      dout(queue.device(), outputs);
  di.upload(queue, input);
  df.upload(queue, filter);
  dout.upload(queue, std::vector<float>(std::size_t(outputs), NAN));   // poisoned: every output must be written
  portkern::conv2d(queue, desc, di.data(), df.data(), dout.data());
  std::vector<double> want(outputs, 0.0);
  for (std::int64_t y = 0; y < desc.out_h; ++y)
    for (std::int64_t x = 0; x < desc.out_w; ++x)
      for (std::int64_t r = 0; r < 3; ++r)
        for (std::int64_t s = 0; s < 3; ++s) {
          const std::int64_t iy = y + r - desc.pad_top, ix = x + s - desc.pad_left;
          if (iy < 0 || iy >= desc.in_h || ix < 0 || ix >= desc.in_w) continue;
          for (std::int64_t c = 0; c < desc.in_c; ++c)
            for (std::int64_t o = 0; o < desc.out_c; ++o)
              want[(y * desc.out_w + x) * desc.out_c + o] +=
                  double(input[(iy * desc.in_w + ix) * desc.in_c + c]) * filter[((r * 3 + s) * desc.in_c + c) * desc.out_c + o];
        }
  const double error = worst_error(dout.download(queue), want);
  std::printf("conv2d 11x13x5 -> 7, 3x3: max error %.2e\n", error);
  return error < 1e-4;
}

}  // namespace

int main() {
  try {
    portkern::Queue queue(portkern::Device::cpu());
    const bool ok = check_gemm(queue) && check_conv2d(queue);
    std::puts(ok ? "OK: the installed portkern computes gemm and conv2d correctly" : "FAILED: wrong results");
    return ok ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
}
