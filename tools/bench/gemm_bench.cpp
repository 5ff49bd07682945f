#include "bench/gemm_bench.hpp"

#include <cmath>
#include <iostream>
#include <random>

#include "bench/contest.hpp"
#include "bench/device_info.hpp"
#include "bench/gemm_operands.hpp"
#include "bench/measure.hpp"
#include "bench/progress.hpp"
#include "bench/table.hpp"
#include "bench/vendor_figures.hpp"
#include "bench/vendor_gemm.hpp"
#include "portkern/blas.hpp"
#include "portkern/gemm_packed.hpp"
#include "portkern/runtime/buffer.hpp"

namespace portkern::bench {

namespace {

template <class T>
void run_portkern(Queue& q, const GemmOperands<T>& g, const GemmChoice& choice) {
  gemm_strided_batched<T>(q, g.ta ? Op::trans : Op::none, g.tb ? Op::trans : Op::none, g.m, g.n, g.k, g.alpha, g.a,
                          g.lda, g.stride_a, g.b, g.ldb, g.stride_b, g.beta, g.c, g.ldc, g.stride_c, g.batch, choice);
}

// A vendor's call for T (sgemm or dgemm), or an empty function when it has none.
template <class T>
const std::function<void(Queue&, const GemmOperands<T>&)>& vendor_call(const VendorGemm& v) {
  if constexpr (std::is_same_v<T, float>) return v.sgemm;
  else return v.dgemm;
}

template <class T>
nlohmann::json bench_shape(Queue& q, const GemmShape& s, const GemmBenchOptions& options,
                           const std::vector<VendorGemm>& vendors) {
  Operands<T> ops(q, s);
  const double flops = 2.0 * s.m * s.n * s.k * s.batch;
  const ContestOptions contest_options = default_contest(q, options.quick);
  int turn = 0;   // calls rotate through the operand sets, so that none finds its inputs in the cache
  using Call = std::function<void(const GemmOperands<T>&)>;
  auto timed = [&](Call call) { return [&ops, &turn, call] { call(ops.set(turn++)); }; };
  auto error_of = [&](const Call& call) {
    q.fill(ops.c.data(), std::numeric_limits<T>::quiet_NaN(), ops.c.size());   // poison: unwritten shows
    call(ops.set(0));
    return ops.max_rel_error(q);
  };
  auto gflops_of = [&](double ms) { return flops / (ms * 1e-3) / 1e9; };
  auto portkern_call = [&](const GemmChoice& choice) -> Call {
    return [&q, choice](const GemmOperands<T>& g) { run_portkern(q, g, choice); };
  };

  const Precision precision = std::is_same_v<T, float> ? options.precision : Precision::ieee;
  const GemmSelection library = select_gemm(q.device(), s, "", precision);
  GemmChoice used{library.family, library.config, precision};
  nlohmann::json row = {{"op", std::is_same_v<T, float> ? "sgemm" : "dgemm"}, {"m", s.m}, {"n", s.n}, {"k", s.k},
                        {"batch", s.batch}, {"trans_a", s.trans_a}, {"trans_b", s.trans_b},
                        {"precision", name(precision)}};
  const bool versus_library = !options.family.empty() || !options.config.empty();
  if (!options.config.empty()) used = {options.config.substr(0, options.config.find('/')), options.config, precision};
  if (!options.family.empty()) {
    // The best of the family's deployed configurations (one measurement each), then contested like the pick.
    const GemmDeployment d = gemm_deployment(q.device(), precision);
    double best_ms = 0;
    for (std::size_t f = 0; f < d.families.size(); ++f) {
      if (d.families[f] != options.family) continue;
      for (const auto& config : d.configs[f]) {
        const GemmChoice choice{options.family, config, precision};
        if (!gemm_not_applicable(q.device(), s, options.family, config, precision).empty()) continue;
        const double ms = measure(q, timed(portkern_call(choice)), contest_options.sample_ms, contest_options.samples).median_ms;
        if (best_ms == 0 || ms < best_ms) best_ms = ms, used = choice;
      }
    }
  }

  // --packed: A packed once per operand set (as MKL's cblas_sgemm_pack, not timed), the products timed.
  std::vector<GemmPackedA<T>> packs;
  Call packed_call;
  if (options.packed) {
    if (s.batch != 1) fail("portkern bench gemm", "--packed takes shapes of batch 1");
    for (int i = 0; i < ops.sets; ++i) {
      const GemmOperands<T> g = ops.set(i);
      packs.push_back(gemm_pack_a(q, g.ta ? Op::trans : Op::none, g.m, g.k, g.a, g.lda));
    }
    packed_call = [&q, &packs, &ops, precision](const GemmOperands<T>& g) {
      gemm_packed(q, g.tb ? Op::trans : Op::none, g.n, g.alpha, packs[std::size_t((g.a - ops.a.data()) / ops.size_a)],
                  g.b, g.ldb, g.beta, g.c, g.ldc, precision);
    };
    used = {"packed", "gemm_packed", precision};
  }

  // Contenders: portkern's choice, [the library's pick, when a family or configuration was asked for], every
  // vendor.
  std::vector<Contender> contenders = {{timed(options.packed ? packed_call : portkern_call(used)), nullptr}};
  if (versus_library)
    contenders.push_back({timed(portkern_call({library.family, library.config, precision})), nullptr});
  std::vector<VendorFigure> figures;
  for (const auto& v : vendors) {
    const auto& call = vendor_call<T>(v);
    if (!call) continue;
    const Call bound = [&q, &call](const GemmOperands<T>& g) { call(q, g); };
    figures.push_back({v.name, v.precision, v.kernel, 0, 0, error_of(bound)});
    contenders.push_back({timed(bound), v.rest});
  }
  const double error = error_of(options.packed ? packed_call : portkern_call(used));
  const ContestResult result = contest(q, contenders, contest_options);
  const std::size_t first_vendor = contenders.size() - figures.size();
  for (std::size_t i = 0; i < figures.size(); ++i) {
    figures[i].gflops = gflops_of(result.median_ms[first_vendor + i]);
    figures[i].spread = result.spread[first_vendor + i];
  }
  if (versus_library)
    row["library"] = {{"family", library.family}, {"config", library.config}, {"gflops", gflops_of(result.median_ms[1])}};
  row["family"] = used.family;
  row["config"] = used.config;
  row["gflops"] = gflops_of(result.median_ms[0]);
  row["spread"] = result.spread[0];
  row["rounds"] = result.rounds;
  row["max_rel_error"] = error;
  add_vendor_figures(row, figures, precision == Precision::tf32 ? "tf32" : "ieee");
  return row;
}

}  // namespace

nlohmann::json bench_gemm(const Device& device, const GemmBenchOptions& options) {
  const nlohmann::json load_before = host_load();
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
  nlohmann::json listed = nlohmann::json::array();
  for (const auto& v : vendors) listed.push_back({{"name", v.name}, {"precision", v.precision}, {"kernel", v.kernel}});
  return {{"device", dev}, {"vendors", listed}, {"load", {{"before", load_before}, {"after", host_load()}}}, {"rows", rows}};
}

double geomean_ratio(const nlohmann::json& rows) {
  std::vector<double> ratios;
  for (const auto& r : rows)
    if (r["ratio"].is_number()) ratios.push_back(r["ratio"].get<double>());
  return geomean(ratios);
}

void print_gemm(const nlohmann::json& result) {
  const auto& rows = result["rows"];
  const bool family_mode = !rows.empty() && rows[0].contains("library");
  std::vector<std::string> headers = {"m", "n", "k", "batch", "op", "config", "GFLOP/s"};
  if (family_mode) headers.insert(headers.end(), {"library GFLOP/s"});
  const bool tf32 = has_tf32(rows);
  for (const auto& h : vendor_headers(tf32)) headers.push_back(h);
  Table table(headers);
  for (const auto& r : rows) {
    std::vector<std::string> cells = {std::to_string(r["m"].get<long>()), std::to_string(r["n"].get<long>()),
                                      std::to_string(r["k"].get<long>()), std::to_string(r["batch"].get<long>()),
                                      std::string(r["trans_a"].get<bool>() ? "T" : "N") + (r["trans_b"].get<bool>() ? "T" : "N"),
                                      r["config"].get<std::string>(), fixed(r["gflops"].get<double>())};
    if (family_mode) cells.push_back(fixed(r["library"]["gflops"].get<double>()));
    const auto vendor = vendor_cells(r, tf32);
    cells.insert(cells.end(), vendor.begin(), vendor.end());
    table.add(cells);
  }
  table.print(std::cout);
  const std::string precision = rows.empty() ? "accurate" : rows[0].value("precision", "accurate");
  std::cout << "precision " << precision << "; geomean ratio to the best vendor at "
            << (precision == "tf32"   ? "TF32 (fp32 where it has none)"
                : precision == "bf16" ? "bf16 (bfloat16 inputs, fp32 sums)"
                : precision == "fp16" ? "fp16 (IEEE half inputs, fp32 sums)"
                                      : "fp32 (TF32 off)")
            << ": "
            << fixed(geomean_ratio(rows), 3) << " over "
            << rows.size() << " shapes (spread: over interleaved rounds, the larger of portkern's and the vendor's)\n";
  print_vendors(result, std::cout);
}

}  // namespace portkern::bench
