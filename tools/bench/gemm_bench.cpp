#include "bench/gemm_bench.hpp"

#include <chrono>
#include <cmath>
#include <iostream>
#include <random>
#include <thread>

#include "bench/device_info.hpp"
#include "bench/gemm_operands.hpp"
#include "bench/measure.hpp"
#include "bench/progress.hpp"
#include "bench/table.hpp"
#include "bench/vendor_gemm.hpp"
#include "portkern/blas.hpp"
#include "portkern/runtime/buffer.hpp"

namespace portkern::bench {

namespace {

template <class T>
void run_portkern(Queue& q, const GemmOperands<T>& g, const GemmChoice& choice) {
  gemm_strided_batched<T>(q, g.ta ? Op::trans : Op::none, g.tb ? Op::trans : Op::none, g.m, g.n, g.k, g.alpha, g.a,
                          g.lda, g.stride_a, g.b, g.ldb, g.stride_b, g.beta, g.c, g.ldc, g.stride_c, g.batch, choice);
}

template <class T>
nlohmann::json bench_shape(Queue& q, const GemmShape& s, const GemmBenchOptions& options,
                           const std::vector<VendorGemm>& vendors) {
  Operands<T> ops(q, s);
  const double sample_ms = default_sample_ms(q, options.quick), flops = 2.0 * s.m * s.n * s.k * s.batch;
  const int samples = options.quick ? 5 : 9;
  auto gflops_of = [&](const std::function<void(const GemmOperands<T>&)>& call, double* error) {
    int turn = 0;
    if (error) {
      q.fill(ops.c.data(), std::numeric_limits<T>::quiet_NaN(), ops.c.size());   // poison: unwritten shows
      call(ops.set(0));
      *error = ops.max_rel_error(q);
    }
    const Measurement t = measure(q, [&] { call(ops.set(turn++)); }, sample_ms, samples);
    if (q.device().is_cpu()) std::this_thread::sleep_for(std::chrono::milliseconds(100));   // let spinning threads rest
    return flops / (t.median_ms * 1e-3) / 1e9;
  };

  const GemmSelection library = select_gemm(q.device(), s);
  GemmChoice used{library.family, library.config};
  double error = 0, gflops = 0;
  nlohmann::json row = {{"op", std::is_same_v<T, float> ? "sgemm" : "dgemm"}, {"m", s.m}, {"n", s.n}, {"k", s.k},
                        {"batch", s.batch}, {"trans_a", s.trans_a}, {"trans_b", s.trans_b}};
  if (options.family.empty()) {
    gflops = gflops_of([&](const GemmOperands<T>& g) { run_portkern(q, g, used); }, &error);
  } else {
    // The best of the family's deployed configurations, next to what the library picks.
    const GemmDeployment d = gemm_deployment(q.device());
    for (std::size_t f = 0; f < d.families.size(); ++f) {
      if (d.families[f] != options.family) continue;
      for (const auto& config : d.configs[f]) {
        double e = 0;
        const double g = gflops_of([&](const GemmOperands<T>& x) { run_portkern(q, x, {options.family, config}); }, &e);
        if (g > gflops) gflops = g, error = e, used = {options.family, config};
      }
    }
    double library_error = 0;
    const double library_gflops = gflops_of([&](const GemmOperands<T>& g) { run_portkern(q, g, {library.family, library.config}); }, &library_error);
    row["library"] = {{"family", library.family}, {"config", library.config}, {"gflops", library_gflops}};
  }
  row["family"] = used.family;
  row["config"] = used.config;
  row["gflops"] = gflops;
  row["max_rel_error"] = error;
  nlohmann::json refs = nlohmann::json::object();
  std::string best;
  double best_gflops = 0;
  for (const auto& v : vendors) {
    const auto& call = [&]() -> const std::function<void(Queue&, const GemmOperands<T>&)>& {
      if constexpr (std::is_same_v<T, float>) return v.sgemm;
      else return v.dgemm;
    }();
    if (!call) continue;
    const double g = gflops_of([&](const GemmOperands<T>& x) { call(q, x); }, nullptr);
    refs[v.name] = g;
    if (g > best_gflops) best_gflops = g, best = v.name;
  }
  row["refs"] = refs;
  row["ref_library"] = best.empty() ? nlohmann::json(nullptr) : nlohmann::json(best);
  row["ref_gflops"] = best_gflops;
  row["ratio"] = best_gflops > 0 ? nlohmann::json(gflops / best_gflops) : nlohmann::json(nullptr);
  return row;
}

}  // namespace

nlohmann::json bench_gemm(const Device& device, const GemmBenchOptions& options) {
  Queue q(device, options.threads);
  const auto vendors = vendor_gemms(device, q.cpu_threads());
  nlohmann::json rows = nlohmann::json::array();
  Progress progress(options.shapes.size());
  for (const auto& s : options.shapes) {
    rows.push_back(options.double_precision ? bench_shape<double>(q, s, options, vendors)
                                            : bench_shape<float>(q, s, options, vendors));
    progress.step("m=" + std::to_string(s.m) + " n=" + std::to_string(s.n) + " k=" + std::to_string(s.k) +
                  " batch=" + std::to_string(s.batch));
  }
  nlohmann::json dev = describe(device, false);
  if (device.is_cpu()) dev["threads"] = q.cpu_threads();
  return {{"device", dev}, {"rows", rows}};
}

double geomean_ratio(const nlohmann::json& rows) {
  double log_sum = 0;
  int count = 0;
  for (const auto& r : rows)
    if (r["ratio"].is_number() && r["ratio"].get<double>() > 0) log_sum += std::log(r["ratio"].get<double>()), ++count;
  return count ? std::exp(log_sum / count) : std::nan("");
}

void print_gemm(const nlohmann::json& result) {
  const auto& rows = result["rows"];
  const bool family_mode = !rows.empty() && rows[0].contains("library");
  std::vector<std::string> headers = {"m", "n", "k", "batch", "op", "config", "GFLOP/s"};
  if (family_mode) headers.insert(headers.end(), {"library GFLOP/s"});
  headers.insert(headers.end(), {"vendor", "vendor GFLOP/s", "ratio", "max rel err"});
  Table table(headers);
  for (const auto& r : rows) {
    std::vector<std::string> cells = {std::to_string(r["m"].get<long>()), std::to_string(r["n"].get<long>()),
                                      std::to_string(r["k"].get<long>()), std::to_string(r["batch"].get<long>()),
                                      std::string(r["trans_a"].get<bool>() ? "T" : "N") + (r["trans_b"].get<bool>() ? "T" : "N"),
                                      r["config"].get<std::string>(), fixed(r["gflops"].get<double>())};
    if (family_mode) cells.push_back(fixed(r["library"]["gflops"].get<double>()));
    const auto vendor = vendor_cells(r);
    cells.insert(cells.end(), vendor.begin(), vendor.end());
    table.add(cells);
  }
  table.print(std::cout);
  std::cout << "geomean ratio to the best vendor: " << fixed(geomean_ratio(rows), 3) << " over " << rows.size()
            << " shapes\n";
}

}  // namespace portkern::bench
