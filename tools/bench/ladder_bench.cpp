#include "bench/ladder_bench.hpp"

#include <iostream>

#include "bench/device_info.hpp"
#include "bench/gemm_operands.hpp"
#include "bench/measure.hpp"
#include "bench/table.hpp"
#include "gemm/tiled/ladder.hpp"
#include "portkern/blas.hpp"

namespace portkern::bench {

nlohmann::json bench_ladder(const Device& device, std::int64_t size, int threads) {
  Queue q(device, threads);
  const GemmShape s{size, size, size, 1};
  Operands<float> ops(q, s);
  const double peak = measure_ceilings(device).gflops_fp32, flops = 2.0 * size * size * size;
  auto time_choice = [&](const GemmChoice& choice, double* error) {
    int turn = 0;
    auto call = [&] {
      const auto g = ops.set(turn++);
      gemm<float>(q, Op::none, Op::none, g.m, g.n, g.k, 1.f, g.a, g.lda, g.b, g.ldb, 0.f, g.c, g.ldc, choice);
    };
    q.fill(ops.c.data(), std::numeric_limits<float>::quiet_NaN(), ops.c.size());
    call();
    *error = ops.max_rel_error(q);
    return flops / (measure(q, call, default_sample_ms(q, true), 5).median_ms * 1e-3) / 1e9;
  };
  nlohmann::json rows = nlohmann::json::array();
  double previous = 0;
  auto add = [&](std::string_view step, const std::string& config, std::string_view change, const GemmChoice& choice) {
    double error = 0;
    const double gflops = time_choice(choice, &error);
    rows.push_back({{"step", step}, {"config", config}, {"change", change}, {"m", size}, {"n", size}, {"k", size},
                    {"gflops", gflops}, {"efficiency", gflops / peak},
                    {"speedup", previous > 0 ? gflops / previous : 1.0}, {"max_rel_error", error}});
    previous = gflops;
  };
  for (const auto& step : gemm_impl::ladder_steps) {
    const std::string config(step.config(device.is_cpu()));
    add(step.name, config, step.change, {"tiled", config});
  }
  const GemmSelection pick = select_gemm(device, s);
  add("tuned", pick.config, "what the library picks (native family)", {pick.family, pick.config});
  nlohmann::json dev = describe(device, true);
  if (device.is_cpu()) dev["threads"] = q.cpu_threads();
  return {{"device", dev}, {"peak_gflops", peak}, {"rows", rows}};
}

void print_ladder(const nlohmann::json& result) {
  Table table({"step", "config", "GFLOP/s", "of peak", "x previous", "max rel err", "change"});
  for (const auto& r : result["rows"]) {
    char err[32];
    std::snprintf(err, sizeof err, "%.1e", r["max_rel_error"].get<double>());
    table.add({r["step"], r["config"], fixed(r["gflops"].get<double>()), fixed(100 * r["efficiency"].get<double>()) + "%",
               fixed(r["speedup"].get<double>(), 2), err, r["change"]});
  }
  std::cout << "measured fp32 peak " << fixed(result["peak_gflops"].get<double>(), 0) << " GFLOP/s\n";
  table.print(std::cout);
}

}  // namespace portkern::bench
