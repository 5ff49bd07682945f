#include "bench/conv2d_bench.hpp"

#include <cmath>
#include <fstream>
#include <iostream>
#include <map>
#include <random>
#include <sstream>

#include "bench/contest.hpp"
#include "bench/conv2d_operands.hpp"
#include "bench/device_info.hpp"
#include "bench/gemm_bench.hpp"
#include "bench/measure.hpp"
#include "bench/progress.hpp"
#include "bench/shapes.hpp"
#include "bench/table.hpp"
#include "bench/vendor_conv2d.hpp"
#include "bench/vendor_figures.hpp"
#include "portkern/error.hpp"
#include "portkern/runtime/buffer.hpp"

namespace portkern::bench {

namespace {

// The configurations the benchmark measures, in the registry's order: every instantiated configuration of an
// algorithm that has a few (winograd both tile sizes, timed with weights transformed once, before timing) or
// that `only` names, the default of one that has many (tiled: `portkern tune conv2d` measures them all).
std::vector<Conv2dChoice> measured(const Device& device, const std::vector<std::string>& only) {
  constexpr std::size_t few = 4;
  std::vector<Conv2dChoice> chosen;
  for (const std::string& algorithm : conv2d_algorithms()) {
    std::vector<Conv2dChoice> configs;
    for (const Conv2dChoice& c : conv2d_space(device))
      if (c.algorithm == algorithm) configs.push_back(c);
    const bool named = std::find(only.begin(), only.end(), algorithm) != only.end();
    if (configs.size() > few && !named) configs = {{algorithm, conv2d_default_config(device, algorithm)}};
    chosen.insert(chosen.end(), configs.begin(), configs.end());
  }
  return chosen;
}

// Those of measured() that apply to a descriptor at `precision`, and that `only` names (by algorithm or
// configuration), each at the precision.
std::vector<Conv2dChoice> candidates(const Device& device, const Conv2dDesc& d, const std::vector<std::string>& only,
                                     Precision precision) {
  std::vector<Conv2dChoice> chosen;
  for (auto c : measured(device, only)) {
    if (!only.empty() && std::find(only.begin(), only.end(), c.algorithm) == only.end() &&
        std::find(only.begin(), only.end(), c.config) == only.end())
      continue;
    c.precision = precision;
    if (conv2d_supports(device, d, c)) chosen.push_back(c);
  }
  return chosen;
}

nlohmann::json bench_layer(Queue& q, const ConvLayer& layer, const Conv2dBenchOptions& options,
                           const std::vector<VendorConv2d>& vendors) {
  const Conv2dDesc d = conv2d_complete(layer_desc(layer, options.batch));
  ConvOperands data(q, d);
  const ContestOptions contest_options = default_contest(q, options.quick);
  auto gflops_of = [&](double ms) { return data.flops() / (ms * 1e-3) / 1e9; };
  auto error_of = [&](const std::function<void()>& call, const std::function<void()>& to_output,
                      bool epilogue = false) {
    data.poison();
    call();
    if (to_output) to_output();
    return data.max_rel_error(epilogue);
  };

  nlohmann::json row = {{"op", "conv2d"}, {"layer", layer.name}, {"batch", d.batch}, {"window", layer.window},
                        {"stride", layer.stride}, {"in_h", d.in_h}, {"in_w", d.in_w}, {"in_c", d.in_c},
                        {"out_h", d.out_h}, {"out_w", d.out_w}, {"out_k", d.out_c}, {"pad", d.pad_top}};
  // Each applicable algorithm once (the table's columns), then the library's pick against the vendors in
  // interleaved rounds (the row's figure and ratio).
  nlohmann::json algorithms = nlohmann::json::object();
  for (auto c : candidates(q.device(), d, options.algorithms, options.precision)) {
    const auto call = data.call(c);
    const double error = error_of(call, nullptr);
    const double ms = measure(q, call, contest_options.sample_ms, contest_options.samples).median_ms;
    algorithms[c.config] = {{"algorithm", c.algorithm}, {"config", c.config}, {"gflops", gflops_of(ms)}, {"max_rel_error", error}};
  }
  row["algorithms"] = algorithms;
  const Conv2dSelection pick = conv2d_select(q.device(), d, options.precision);
  row["precision"] = name(options.precision);
  row["algorithm"] = pick.algorithm;
  row["config"] = pick.config;
  row["rule"] = pick.reason;
  const auto pick_call = data.call({pick.algorithm, pick.config, options.precision});
  row["max_rel_error"] = error_of(pick_call, nullptr);

  std::vector<Contender> contenders = {{pick_call, nullptr}};
  std::vector<VendorFigure> figures;
  for (const auto& v : vendors) {
    std::vector<VendorConvCall> calls;
    try {   // a vendor that does not take the layer (e.g. a layout it lacks) leaves its columns out
      calls = v.prepare(q, d, data.input(), data.filter(), data.output());
    } catch (const Error& e) {
      row["vendors_left_out"].push_back(std::string(v.name) + ": " + e.what());
      continue;
    }
    for (auto& call : calls) {
      figures.push_back({call.name, call.precision, call.impl, 0, 0, error_of(call.run, call.to_output)});
      contenders.push_back({call.run, call.rest});
    }
  }
  // The pick with the epilogue last, so that the vendors' indices stay 1.. .
  double epilogue_error = 0;
  if (options.epilogue) {
    const auto call = data.call({pick.algorithm, pick.config, options.precision}, true);
    epilogue_error = error_of(call, nullptr, true);
    contenders.push_back({call, nullptr});
  }
  const ContestResult result = contest(q, contenders, contest_options);
  if (options.epilogue)
    row["epilogue"] = {{"gflops", gflops_of(result.median_ms.back())},
                       {"cost", result.median_ms.back() / result.median_ms[0]},
                       {"spread", result.spread.back()},
                       {"max_rel_error", epilogue_error}};
  row["gflops"] = gflops_of(result.median_ms[0]);
  row["spread"] = result.spread[0];
  row["rounds"] = result.rounds;
  for (std::size_t i = 0; i < figures.size(); ++i) {
    figures[i].gflops = gflops_of(result.median_ms[i + 1]);
    figures[i].spread = result.spread[i + 1];
  }
  add_vendor_figures(row, figures, options.precision == Precision::tf32 ? "tf32" : "ieee");
  return row;
}

// With --epilogue: what the bias, the residual and ReLU cost the library's pick, geomean and worst.
void print_epilogue_cost(const nlohmann::json& rows) {
  std::vector<double> costs;
  double worst = 0, error = 0;
  std::string worst_layer;
  for (const auto& r : rows) {
    if (!r.contains("epilogue")) continue;
    const double cost = r["epilogue"]["cost"].get<double>();
    costs.push_back(cost);
    error = std::max(error, r["epilogue"]["max_rel_error"].get<double>());
    if (cost > worst) worst = cost, worst_layer = r["layer"].get<std::string>();
  }
  if (costs.empty()) return;
  std::cout << "epilogue (bias, residual, ReLU) on the library's pick: " << fixed(geomean(costs), 3)
            << "x the plain call's time (geomean over " << costs.size() << " layers; worst " << fixed(worst, 3) << " on "
            << worst_layer << "), max rel err " << error << '\n';
}

}  // namespace

std::vector<std::string> conv2d_bench_names(const Device& device) {
  std::vector<std::string> names;
  const std::vector<Conv2dChoice> all = measured(device, {});
  for (const auto& c : all)
    if (std::find(names.begin(), names.end(), c.algorithm) == names.end()) names.push_back(c.algorithm);
  for (const auto& c : all) names.push_back(c.config);
  return names;
}

nlohmann::json bench_conv2d(const Device& device, const Conv2dBenchOptions& options) {
  const auto layers = read_conv_layers(conv_shapes_path(options.net));
  const nlohmann::json load_before = host_load();
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
  return {{"device", dev}, {"net", options.net}, {"batch", options.batch},
          {"load", {{"before", load_before}, {"after", host_load()}}}, {"rows", rows}};
}

void print_conv2d(const nlohmann::json& result) {
  const auto& rows = result["rows"];
  // One column per algorithm configuration that any row measured, in the registry's order.
  std::vector<std::string> configs;
  for (const Conv2dChoice& c : conv2d_space(Device::cpu(), false))
    for (const auto& r : rows)
      if (r["algorithms"].contains(c.config)) {
        configs.push_back(c.config);
        break;
      }
  std::vector<std::string> headers = {"layer", "shape"};
  for (const auto& c : configs) headers.push_back(c);
  headers.insert(headers.end(), {"pick", "GFLOP/s"});
  const bool tf32 = has_tf32(rows);
  for (const auto& h : vendor_headers(tf32)) headers.push_back(h);
  headers.push_back("vendor impl");
  Table table(headers);
  for (const auto& r : rows) {
    auto v = [&](const char* key) { return r[key].get<std::int64_t>(); };
    const ConvLayer layer{r["layer"].get<std::string>(), v("window"), v("stride"), v("in_h"), v("in_w"), v("in_c"),
                          v("out_h"), v("out_w"), v("out_k")};
    std::vector<std::string> cells = {layer.name, layer_label(layer)};
    for (const auto& c : configs)
      cells.push_back(r["algorithms"].contains(c) ? fixed(r["algorithms"][c]["gflops"].get<double>()) : "");
    cells.push_back(r["config"].get<std::string>());
    cells.push_back(fixed(r["gflops"].get<double>()));
    const auto vendor = vendor_cells(r, tf32);
    cells.insert(cells.end(), vendor.begin(), vendor.end());
    cells.push_back(r.value("ref_impl", ""));
    table.add(cells);
  }
  table.print(std::cout);
  const std::string precision = rows.empty() ? "accurate" : rows[0].value("precision", "accurate");
  std::cout << "precision " << precision << "; geomean ratio (library's pick / vendor at "
            << (precision == "tf32" ? "TF32 (fp32 where it has none)" : "fp32") << "): " << fixed(geomean_ratio(rows), 3)
            << " over " << rows.size()
            << " layers (winograd timed with weights transformed once, gemm_1x1 and im2col on the CPU and implicit_wgmma on the H100 with them packed once, as the vendor's weights are reordered once)\n";
  if (has_tf32(rows)) std::cout << "geomean ratio to the vendor with TF32 allowed: " << fixed(tf32_geomean_ratio(rows), 3) << '\n';
  print_epilogue_cost(rows);
  print_vendors(result, std::cout);
}

}  // namespace portkern::bench
