#include "bench/tuner.hpp"

#include <chrono>
#include <iostream>
#include <sstream>
#include <thread>

#include "bench/gemm_operands.hpp"
#include "bench/measure.hpp"
#include "bench/progress.hpp"
#include "bench/tuning_csv.hpp"
#include "portkern/blas.hpp"
#include "portkern/error.hpp"

namespace portkern::bench {

namespace {

constexpr const char* header = "device,op,family,config,m,n,k,batch,trans_a,trans_b,gflops,time_ms,reps";

std::string key(const std::string& family, const std::string& config, const GemmShape& s) {
  std::ostringstream k;
  k << family << ',' << config << ',' << s.m << ',' << s.n << ',' << s.k << ',' << s.batch << ',' << s.trans_a << ','
    << s.trans_b;
  return k.str();
}

}  // namespace

std::string default_tuning_csv(const Device& device, const std::string& family) {
  return data_dir() + "/tuning/" + gemm_device_class(device) + "/gemm-" + family + ".csv";
}

// Each family's configurations come from the registry (gemm_families: the family's whole space), not from the
// deployment, so a configuration the last tuning dropped is measured again. `options.configs`: "default" (the
// part the family tunes by default), "full" (its whole space) or a substring of the names to measure.
std::vector<std::pair<std::string, std::string>> tuning_configs(const Device& device, const TuneOptions& options) {
  std::vector<std::pair<std::string, std::string>> configs;
  for (const GemmFamily& family : gemm_families(device)) {
    if (options.family != "all" && options.family != family.name) continue;
    const bool full = options.configs == "full", part = options.configs == "default";
#if !PORTKERN_TUNING
    // Outside the tuning build only a deployment's tiled configurations are instantiated.
    if (family.name == "tiled")
      fail("portkern tune", "this build instantiates only the deployed tiled configurations: build the tuning "
                            "configuration first (cmake --preset tuning && cmake --build --preset tuning)");
#endif
    for (const std::string& name : part ? family.tuning_part : family.space)
      if (part || full || name.find(options.configs) != std::string::npos) configs.emplace_back(family.name, name);
  }
  if (configs.empty()) fail("portkern tune", "family '" + options.family + "' has no configurations on " + device.name());
  return configs;
}

void tune_gemm(const Device& device, const TuneOptions& options) {
  Queue q(device, options.threads);
  const auto configs = tuning_configs(device, options);
  std::vector<GemmShape> shapes;
  for (const auto& s : options.shapes)
    if (options.max_mflop <= 0 || 2.0 * s.m * s.n * s.k * s.batch <= options.max_mflop * 1e6) shapes.push_back(s);
  const std::string device_class = gemm_device_class(device);
  const double time_ms = options.time_ms > 0 ? options.time_ms : device.is_cpu() ? 20 : 2;
  const int pause_ms = options.pause_ms >= 0 ? options.pause_ms : device.is_cpu() ? 5 : 0;

  TuningCsv csv(options.out, header);

  std::size_t todo = 0;
  for (const auto& s : shapes)
    for (const auto& [family, config] : configs) todo += !csv.measured(key(family, config, s));
  std::cerr << "tuning " << configs.size() << " configurations x " << shapes.size() << " shapes on "
            << device.name() << ": " << todo << " to measure, " << (configs.size() * shapes.size() - todo)
            << " already in " << csv.path() << '\n';
  Progress progress(todo);

  for (const auto& s : shapes) {
    std::unique_ptr<Operands<float>> ops;
    for (const auto& [family, config] : configs) {
      if (csv.measured(key(family, config, s))) continue;
      if (!ops) ops = std::make_unique<Operands<float>>(q, s);
      // The tf32 precision allows every arithmetic, and cuda_native/auto computes there as at the default one.
      const GemmChoice choice{family, config, Precision::tf32};
      int turn = 0;
      auto call = [&] {
        const auto g = ops->set(turn++);
        gemm_strided_batched<float>(q, g.ta ? Op::trans : Op::none, g.tb ? Op::trans : Op::none, g.m, g.n, g.k,
                                    g.alpha, g.a, g.lda, g.stride_a, g.b, g.ldb, g.stride_b, g.beta, g.c, g.ldc,
                                    g.stride_c, g.batch, choice);
      };
      double gflops = 0, median_ms = 0;
      long reps = 0;
      std::string failure;
      try {
        q.fill(ops->c.data(), std::numeric_limits<float>::quiet_NaN(), ops->c.size());
        turn = 0;
        call();
        const double error = ops->max_rel_error(q);
        // fp32 accuracy; TF32 operands carry 2^-11 relative errors each.
        const double tolerance = gemm_arithmetic(config, Precision::tf32) == Arithmetic::tf32 ? 4e-3 : 1e-4;
        if (!(error < tolerance)) throw Error("wrong result: relative error " + std::to_string(error));
        // The checked call warmed up: a configuration far slower than a sample is timed once more, alone.
        const Measurement m = tuning_measure(q, call, time_once(q, call), time_ms, time_ms);
        median_ms = m.median_ms;
        reps = long(m.calls_per_sample) * m.samples;
        gflops = 2.0 * s.m * s.n * s.k * s.batch / (median_ms * 1e-3) / 1e9;
      } catch (const Error& e) {
        failure = e.what();
        q = Queue(device, options.threads);   // a failed launch may leave the queue in any state
      }
      csv.append(device_class, "gemm", key(family, config, s), gflops, median_ms, failure.empty() ? reps : 0);
      progress.step(config + (failure.empty() ? "" : " (failed)"));
      if (pause_ms) std::this_thread::sleep_for(std::chrono::milliseconds(pause_ms));
    }
  }
}

}  // namespace portkern::bench
