#include "bench/conv2d_bench.hpp"

#include <chrono>
#include <cmath>
#include <fstream>
#include <iostream>
#include <map>
#include <random>
#include <sstream>
#include <thread>

#include "bench/device_info.hpp"
#include "bench/gemm_bench.hpp"
#include "bench/measure.hpp"
#include "bench/progress.hpp"
#include "bench/shapes.hpp"
#include "bench/table.hpp"
#include "bench/vendor_conv2d.hpp"
#include "portkern/error.hpp"
#include "portkern/runtime/buffer.hpp"

namespace portkern::bench {

std::vector<ConvLayer> read_conv_layers(const std::string& path) {
  const char* fn = "portkern bench conv2d";
  std::ifstream in(path);
  if (!in) fail(fn, "cannot read " + path);
  std::string line;
  std::getline(in, line);
  std::map<std::string, std::size_t> column;
  {
    std::stringstream header(line);
    std::size_t i = 0;
    for (std::string cell; std::getline(header, cell, ',');) column[cell.substr(0, cell.find_last_not_of(" \r") + 1)] = i++;
  }
  for (const char* needed : {"layer", "window", "stride", "in_h", "in_w", "in_c", "out_h", "out_w", "out_k"})
    if (!column.count(needed)) fail(fn, path + ": the header names no column '" + needed + "'");
  std::vector<ConvLayer> layers;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> cells;
    std::stringstream row(line);
    for (std::string cell; std::getline(row, cell, ',');) cells.push_back(cell);
    auto get = [&](const char* name) { return std::stoll(cells.at(column[name])); };
    layers.push_back({cells.at(column["layer"]), get("window"), get("stride"), get("in_h"), get("in_w"), get("in_c"),
                      get("out_h"), get("out_w"), get("out_k")});
  }
  return layers;
}

Conv2dDesc layer_desc(const ConvLayer& l, std::int64_t batch) {
  Conv2dDesc d;
  d.batch = batch, d.in_h = l.in_h, d.in_w = l.in_w, d.in_c = l.in_c, d.out_c = l.out_k;
  d.window_h = d.window_w = l.window;
  d.stride_h = d.stride_w = l.stride;
  const std::int64_t pad = (l.in_h - l.window) / l.stride + 1 == l.out_h ? 0 : (l.window - 1) / 2;
  d.pad_top = d.pad_bottom = d.pad_left = d.pad_right = pad;
  d.out_h = l.out_h, d.out_w = l.out_w;
  return d;
}

namespace {

// Largest |out - ref| / sum |x w| over 64 sampled outputs (NaN: unwritten or wrong).
double max_rel_error(Queue& q, const Conv2dDesc& d, const std::vector<float>& in, const std::vector<float>& f,
                     const float* output) {
  std::vector<float> got(std::size_t(d.batch * d.out_h * d.out_w * d.out_c));
  q.copy(got.data(), output, got.size());
  q.wait();
  std::mt19937 rng(7);
  double worst = 0;
  for (int sample = 0; sample < 64; ++sample) {
    const std::int64_t n = rng() % d.batch, oy = rng() % d.out_h, ox = rng() % d.out_w, k = rng() % d.out_c;
    double sum = 0, magnitude = 0;
    for (std::int64_t r = 0; r < d.window_h; ++r)
      for (std::int64_t s = 0; s < d.window_w; ++s) {
        const std::int64_t iy = oy * d.stride_h + r - d.pad_top, ix = ox * d.stride_w + s - d.pad_left;
        if (iy < 0 || iy >= d.in_h || ix < 0 || ix >= d.in_w) continue;
        for (std::int64_t c = 0; c < d.in_c; ++c) {
          const double p = double(in[std::size_t(((n * d.in_h + iy) * d.in_w + ix) * d.in_c + c)]) *
                           f[std::size_t(((r * d.window_w + s) * d.in_c + c) * d.out_c + k)];
          sum += p;
          magnitude += std::abs(p);
        }
      }
    const double e = std::abs(double(got[std::size_t(((n * d.out_h + oy) * d.out_w + ox) * d.out_c + k)]) - sum) /
                     std::max(magnitude, 1e-300);
    if (!(e <= worst)) worst = e;
  }
  return worst;
}

// The algorithms measured for a descriptor: each applicable one with its default configuration (winograd
// both tile sizes, with weights transformed once, before timing).
std::vector<Conv2dChoice> candidates(const Device& device, const Conv2dDesc& d, const std::vector<std::string>& only) {
  const std::vector<Conv2dChoice> all = {{"direct", "direct/default"},  {"tiled", "tiled/t2x4_c4_k4"},
                                         {"im2col", "im2col/chunked"},  {"im2col", "im2col/whole"},
                                         {"gemm_1x1", "gemm_1x1/default"}, {"winograd", "winograd/f2"},
                                         {"winograd", "winograd/f4"}};
  std::vector<Conv2dChoice> chosen;
  for (const auto& c : all) {
    if (!only.empty() && std::find(only.begin(), only.end(), c.algorithm) == only.end() &&
        std::find(only.begin(), only.end(), c.config) == only.end())
      continue;
    if (conv2d_supports(device, d, c)) chosen.push_back(c);
  }
  return chosen;
}

nlohmann::json bench_layer(Queue& q, const ConvLayer& layer, const Conv2dBenchOptions& options,
                           const std::vector<VendorConv2d>& vendors) {
  const Conv2dDesc d = conv2d_complete(layer_desc(layer, options.batch));
  const std::int64_t in_count = d.batch * d.in_h * d.in_w * d.in_c, f_count = d.window_h * d.window_w * d.in_c * d.out_c;
  const std::int64_t out_count = d.batch * d.out_h * d.out_w * d.out_c;
  std::mt19937 rng(unsigned(in_count + f_count));
  std::uniform_real_distribution<double> uniform(-1, 1);
  std::vector<float> host_in(static_cast<std::size_t>(in_count)), host_f(static_cast<std::size_t>(f_count));
  for (auto& x : host_in) x = float(uniform(rng));
  for (auto& x : host_f) x = float(uniform(rng));
  Buffer<float> input(q.device(), in_count), filter(q.device(), f_count), output(q.device(), out_count);
  input.upload(q, host_in);
  filter.upload(q, host_f);
  const double flops = 2.0 * d.batch * d.out_h * d.out_w * d.out_c * d.in_c * d.window_h * d.window_w;
  const double sample_ms = default_sample_ms(q, options.quick);
  auto time_call = [&](const std::function<void()>& call, double* error) {
    q.fill(output.data(), std::numeric_limits<float>::quiet_NaN(), output.size());
    call();
    if (error) *error = max_rel_error(q, d, host_in, host_f, output.data());
    const Measurement t = measure(q, call, sample_ms, options.quick ? 5 : 9);
    if (q.device().is_cpu()) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    return flops / (t.median_ms * 1e-3) / 1e9;
  };

  nlohmann::json row = {{"op", "conv2d"}, {"layer", layer.name}, {"batch", d.batch}, {"window", layer.window},
                        {"stride", layer.stride}, {"in_h", d.in_h}, {"in_w", d.in_w}, {"in_c", d.in_c},
                        {"out_h", d.out_h}, {"out_w", d.out_w}, {"out_k", d.out_c}, {"pad", d.pad_top}};
  nlohmann::json algorithms = nlohmann::json::object();
  for (const auto& c : candidates(q.device(), d, options.algorithms)) {
    double error = 0, gflops = 0;
    if (c.algorithm == "winograd") {
      const WinogradFilter w = winograd_transform_filter(q, d.in_c, d.out_c, filter.data(), c.config == "winograd/f2" ? 2 : 4);
      gflops = time_call([&] { conv2d_winograd(q, d, input.data(), w, output.data()); }, &error);
    } else {
      gflops = time_call([&] { conv2d(q, d, input.data(), filter.data(), output.data(), c); }, &error);
    }
    algorithms[c.config] = {{"algorithm", c.algorithm}, {"config", c.config}, {"gflops", gflops}, {"max_rel_error", error}};
  }
  row["algorithms"] = algorithms;
  const Conv2dSelection pick = conv2d_select(q.device(), d);
  row["algorithm"] = pick.algorithm;
  row["config"] = pick.config;
  row["rule"] = pick.reason;
  if (algorithms.contains(pick.config)) {
    row["gflops"] = algorithms[pick.config]["gflops"];
    row["max_rel_error"] = algorithms[pick.config]["max_rel_error"];
  } else {   // --algo left the pick out: time it too
    double error = 0;
    row["gflops"] = time_call([&] { conv2d(q, d, input.data(), filter.data(), output.data()); }, &error);
    row["max_rel_error"] = error;
  }
  nlohmann::json refs = nlohmann::json::object();
  std::string best, best_impl;
  double best_gflops = 0;
  for (const auto& v : vendors) {
    std::string impl;
    const auto call = v.prepare(q, d, input.data(), filter.data(), output.data(), &impl);
    if (!call) continue;
    double error = 0;
    const double g = time_call(call, &error);
    refs[v.name] = {{"gflops", g}, {"impl", impl}, {"max_rel_error", error}};
    if (g > best_gflops) best_gflops = g, best = v.name, best_impl = impl;
  }
  row["refs"] = refs;
  row["ref_library"] = best.empty() ? nlohmann::json(nullptr) : nlohmann::json(best);
  row["ref_impl"] = best_impl;
  row["ref_gflops"] = best_gflops;
  row["ratio"] = best_gflops > 0 ? nlohmann::json(row["gflops"].get<double>() / best_gflops) : nlohmann::json(nullptr);
  return row;
}

}  // namespace

nlohmann::json bench_conv2d(const Device& device, const Conv2dBenchOptions& options) {
  const std::string path = options.net.find('/') != std::string::npos || options.net.ends_with(".csv")
                               ? options.net
                               : data_dir() + "/shapes/conv_" + options.net + ".csv";
  const auto layers = read_conv_layers(path);
  Queue q(device, options.threads);
  const auto vendors = vendor_conv2d(device, q.cpu_threads());
  nlohmann::json rows = nlohmann::json::array();
  Progress progress(layers.size());
  for (const auto& layer : layers) {
    rows.push_back(bench_layer(q, layer, options, vendors));
    progress.step(layer.name);
  }
  nlohmann::json dev = describe(device, false);
  if (device.is_cpu()) dev["threads"] = q.cpu_threads();
  return {{"device", dev}, {"net", options.net}, {"batch", options.batch}, {"rows", rows}};
}

void print_conv2d(const nlohmann::json& result) {
  const auto& rows = result["rows"];
  // One column per algorithm configuration that any row measured, in a fixed order.
  std::vector<std::string> configs;
  for (const char* c : {"direct/default", "tiled/t2x4_c4_k4", "im2col/chunked", "im2col/whole", "gemm_1x1/default",
                        "winograd/f2", "winograd/f4"})
    for (const auto& r : rows)
      if (r["algorithms"].contains(c)) {
        configs.push_back(c);
        break;
      }
  std::vector<std::string> headers = {"layer", "shape"};
  for (const auto& c : configs) headers.push_back(c);
  headers.insert(headers.end(), {"pick", "GFLOP/s", "vendor", "vendor GFLOP/s", "ratio", "max rel err"});
  Table table(headers);
  for (const auto& r : rows) {
    auto v = [&](const char* key) { return std::to_string(r[key].get<long>()); };
    std::vector<std::string> cells = {r["layer"].get<std::string>(),
                                      v("window") + "x" + v("window") + "/" + v("stride") + " " + v("in_h") + "x" +
                                          v("in_w") + "x" + v("in_c") + "->" + v("out_k")};
    for (const auto& c : configs)
      cells.push_back(r["algorithms"].contains(c) ? fixed(r["algorithms"][c]["gflops"].get<double>()) : "");
    cells.push_back(r["config"].get<std::string>());
    cells.push_back(fixed(r["gflops"].get<double>()));
    const auto vendor = vendor_cells(r);
    cells.insert(cells.end(), vendor.begin(), vendor.end());
    table.add(cells);
  }
  table.print(std::cout);
  std::cout << "geomean ratio (rule's pick / vendor): " << fixed(geomean_ratio(rows), 3) << " over " << rows.size()
            << " layers (winograd timed with weights transformed once, as the vendor's weights are reordered once)\n";
}

}  // namespace portkern::bench
