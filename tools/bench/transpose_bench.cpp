#include "bench/transpose_bench.hpp"

#include <iostream>
#include <limits>
#include <random>

#include "bench/measure.hpp"
#include "bench/table.hpp"
#include "portkern/runtime/buffer.hpp"
#include "transpose/backends.hpp"

namespace portkern::bench {

namespace {

using Transpose = void (*)(Queue&, std::int64_t, std::int64_t, const float*, std::int64_t, float*, std::int64_t);

std::vector<std::pair<std::int64_t, std::int64_t>> sizes(const Device& device, bool full) {
  if (device.is_cuda()) {
    if (!full) return {{8192, 8192}, {16384, 16384}};
    return {{1024, 1024}, {4096, 4096}, {8192, 8192}, {16384, 16384}, {12289, 7919}};
  }
  if (!full) return {{2048, 2048}, {4096, 4096}};
  return {{1024, 1024}, {2048, 2048}, {4096, 4096}, {8192, 8192}, {4099, 3001}};
}

// Does `out` hold exactly the transpose of `in`? (a transpose moves values, so equality is exact)
bool verify(const std::vector<float>& in, const std::vector<float>& out, std::int64_t rows, std::int64_t cols) {
  for (std::int64_t r = 0; r < rows; ++r)
    for (std::int64_t c = 0; c < cols; ++c)
      if (out[c * rows + r] != in[r * cols + c]) return false;
  return true;
}

}  // namespace

nlohmann::json bench_transpose(const Device& device, const TransposeOptions& options) {
  Queue queue(device, options.threads);
  Transpose portable = transpose_backends::portable_cpu, native = transpose_backends::native_cpu;
#if PORTKERN_HAVE_CUDA
  if (device.is_cuda()) portable = transpose_backends::portable_cuda, native = transpose_backends::native_cuda;
#endif
  const double copy_gbs = measure_ceilings(device).copy_gbs;
  const double sample_ms = default_sample_ms(queue, !options.full);
  nlohmann::json rows = nlohmann::json::array();
  std::mt19937 rng(42);
  std::uniform_real_distribution<float> uniform(-1.f, 1.f);
  for (auto [m, n] : sizes(device, options.full)) {
    std::vector<float> host(std::size_t(m * n));
    for (auto& x : host) x = uniform(rng);
    Buffer<float> in(device, m * n), out(device, m * n);
    in.upload(queue, host);
    auto run = [&](Transpose f) {
      queue.fill(out.data(), std::numeric_limits<float>::quiet_NaN(), out.size());   // poison
      f(queue, m, n, in.data(), n, out.data(), m);
      const bool ok = verify(host, out.download(queue), m, n);
      const Measurement t = measure(queue, [&] { f(queue, m, n, in.data(), n, out.data(), m); }, sample_ms, 7);
      return std::pair{2.0 * m * n * sizeof(float) / (t.median_ms * 1e-3) / 1e9, ok};
    };
    const auto [portable_gbs, portable_ok] = run(portable);
    const auto [native_gbs, native_ok] = run(native);
    rows.push_back({{"op", "transpose"},
                    {"rows", m},
                    {"cols", n},
                    {"portable_gbs", portable_gbs},
                    {"native_gbs", native_gbs},
                    {"ratio", portable_gbs / native_gbs},
                    {"copy_gbs", copy_gbs},
                    {"fraction_of_copy", portable_gbs / copy_gbs},
                    {"verified", portable_ok && native_ok}});
  }
  return rows;
}

void print_transpose(const nlohmann::json& rows) {
  Table table({"rows", "cols", "portable GB/s", "native GB/s", "portable/native", "copy GB/s", "of copy", "verified"});
  for (const auto& r : rows)
    table.add({std::to_string(r["rows"].get<long>()), std::to_string(r["cols"].get<long>()),
               fixed(r["portable_gbs"].get<double>()), fixed(r["native_gbs"].get<double>()),
               fixed(r["ratio"].get<double>(), 3), fixed(r["copy_gbs"].get<double>()),
               fixed(100 * r["fraction_of_copy"].get<double>(), 0) + "%", r["verified"].get<bool>() ? "yes" : "NO"});
  table.print(std::cout);
}

}  // namespace portkern::bench
