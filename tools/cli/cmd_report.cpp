// portkern report [--full] [--json FILE]: the performance-portability report on every device present —
// the kernel model's overhead (transpose), GEMM and 2-D convolution against the vendor libraries, the DNN
// operators (against their native CUDA twins on a GPU), whole networks (VGG-16 and ResNet-50 at batch 1 on
// each back end: deployed, portable, vendor), and a summary of geometric-mean ratios. Quick sizes by default
// (a few minutes on 2 cores); --full for the suites.
#include <iostream>

#include "bench/conv2d_bench.hpp"
#include "bench/device_info.hpp"
#include "bench/gemm_bench.hpp"
#include "bench/net_bench.hpp"
#include "bench/ops/op_bench.hpp"
#include "bench/shapes.hpp"
#include "bench/table.hpp"
#include "bench/transpose_bench.hpp"
#include "bench/vendor_figures.hpp"
#include "cli/commands.hpp"
#include "portkern/dnn.hpp"
#include "cli/options.hpp"

namespace portkern::cli {

namespace {

// Quick: squares up to 1024 and the quick network set's shapes of at most 2 GFLOP; full: squares and all
// 155 network shapes.
std::vector<bench::GemmShape> report_gemm_shapes(const Device& d, bool full) {
  auto shapes = bench::gemm_set("square", d);
  auto nets = bench::gemm_set(full ? "nets" : "nets-quick", d);
  if (!full) {
    std::erase_if(shapes, [](const bench::GemmShape& s) { return s.m > 1024; });
    std::erase_if(nets, [](const bench::GemmShape& s) { return 2.0 * s.m * s.n * s.k * s.batch > 2e9; });
  }
  shapes.insert(shapes.end(), nets.begin(), nets.end());
  return shapes;
}

}  // namespace

void add_report(CLI::App& app) {
  auto* cmd = app.add_subcommand("report", "Run the performance-portability report on every device");
  static bool full = false;
  static int threads = 0;
  static std::string json;
  cmd->add_flag("--full", full, "Complete suites instead of the quick sizes");
  add_threads_option(*cmd, threads);
  add_output_option(*cmd, "--json", json, "Also write the report as JSON to this file");
  cmd->callback([] {
    nlohmann::json report = {{"devices", nlohmann::json::array()}};
    bench::Table summary({"device", "part", "geomean ratio", "against", "rows"});
    for (const Device& d : devices()) {
      std::cout << "\n== " << bench::summary(d) << "\n\n-- kernel model overhead: tiled transpose, portable vs "
                << (d.is_cpu() ? "plain OpenMP loop" : "hand-written CUDA") << '\n';
      nlohmann::json entry = {{"device", bench::describe(d, true)}};
      entry["transpose"] = bench::bench_transpose(d, {full, threads});
      bench::print_transpose(entry["transpose"]);
      summary.add({d.name(), "transpose (portable/native)", bench::fixed(bench::geomean_ratio(entry["transpose"]), 3),
                   "hand-written", std::to_string(entry["transpose"].size())});

      std::cout << "\n-- GEMM fp32: the library's pick vs the best vendor library\n";
      bench::GemmBenchOptions gemm;
      gemm.shapes = report_gemm_shapes(d, full);
      gemm.threads = threads;
      gemm.quick = !full;
      entry["gemm"] = bench::bench_gemm(d, gemm);
      bench::print_gemm(entry["gemm"]);
      const auto& gemm_rows = entry["gemm"]["rows"];
      summary.add({d.name(), "GEMM fp32 (library/vendor)", bench::fixed(bench::geomean_ratio(gemm_rows), 3),
                   d.is_cpu() ? "best of OpenBLAS, oneDNN (fp32)" : "cuBLAS fp32 (TF32 off)", std::to_string(gemm_rows.size())});
      if (bench::has_tf32(gemm_rows))
        summary.add({d.name(), "GEMM fp32 (library/vendor with TF32)", bench::fixed(bench::tf32_geomean_ratio(gemm_rows), 3),
                     "cuBLAS TF32 (lower precision)", std::to_string(gemm_rows.size())});
      if (d.is_cuda())   // the precisions that compute otherwise than accurate where there are tensor cores
        for (Precision p : {Precision::ieee, Precision::tf32}) {
          std::cout << "\n-- GEMM fp32 at precision " << name(p) << " (docs/precision.md)\n";
          gemm.precision = p;
          const std::string key = "gemm_" + std::string(name(p));
          entry[key] = bench::bench_gemm(d, gemm);
          bench::print_gemm(entry[key]);
          summary.add({d.name(), "GEMM precision " + std::string(name(p)) + " (library/vendor)",
                       bench::fixed(bench::geomean_ratio(entry[key]["rows"]), 3),
                       p == Precision::tf32 ? "cuBLAS TF32" : "cuBLAS fp32 (TF32 off)",
                       std::to_string(entry[key]["rows"].size())});
        }

      for (const std::string net : {"vgg16", "resnet50"}) {
        std::cout << "\n-- conv2d fp32, " << net << " batch 1: the deployment's pick vs "
                  << (d.is_cpu() ? "oneDNN" : "cuDNN") << '\n';
        bench::Conv2dBenchOptions conv;
        conv.net = net;
        conv.threads = threads;
        conv.quick = !full;
        if (!full) conv.algorithms = conv2d_deployment(d).algorithms;   // the others (baselines) only with --full
        entry["conv2d_" + net] = bench::bench_conv2d(d, conv);
        bench::print_conv2d(entry["conv2d_" + net]);
        const auto& conv_rows = entry["conv2d_" + net]["rows"];
        summary.add({d.name(), "conv2d fp32 " + net + " b1 (library/vendor)", bench::fixed(bench::geomean_ratio(conv_rows), 3),
                     d.is_cpu() ? "oneDNN fp32" : "cuDNN fp32 (TF32 off)", std::to_string(conv_rows.size())});
        if (bench::has_tf32(conv_rows))
          summary.add({d.name(), "conv2d fp32 " + net + " b1 (library/vendor with TF32)",
                       bench::fixed(bench::tf32_geomean_ratio(conv_rows), 3), "cuDNN TF32 (lower precision)",
                       std::to_string(conv_rows.size())});
      }
      std::cout << "\n-- DNN operators (seed 004), " << (full ? "default" : "small") << " sizes"
                << (d.is_cuda() ? ": portable kernel vs its native CUDA twin\n" : ": portable kernel\n");
      entry["ops"] = bench::opsuite::bench_ops(d, {"", !full, threads, ""});
      bench::opsuite::print_ops(entry["ops"]);
      std::size_t verified = 0;
      nlohmann::json speed = nlohmann::json::array();   // native time / portable time: > 1, portable faster
      for (const auto& row : entry["ops"]) {
        verified += row["ok"].get<bool>();
        if (!row["ratio"].is_null()) speed.push_back({{"ratio", 1.0 / row["ratio"].get<double>()}});
      }
      if (!speed.empty())
        summary.add({d.name(), "DNN operators (native time/portable time)", bench::fixed(bench::geomean_ratio(speed), 3),
                     "hand-written CUDA", std::to_string(speed.size())});
      summary.add({d.name(), "DNN operators verified", std::to_string(verified) + " of " + std::to_string(entry["ops"].size()),
                   "float64 reference", std::to_string(entry["ops"].size())});

      std::cout << "\n-- whole networks, batch 1, random weights: the library deployed, its portable GEMMs alone, "
                << "the vendor's primitives\n";
      bench::NetBenchOptions nets;
      nets.threads = threads;
      // The median of 10 / 20 passes: a pass of ResNet-50 takes ~30 ms on 2 cores and swings by 10% and more
      // on a shared host, and loading each network (its layers timed) costs more than the passes.
      nets.repeats = full ? 20 : 10;
      entry["networks"] = {{"rows", bench::bench_networks(d, nets)}};
      bench::print_networks(entry["networks"]["rows"]);
      for (const std::string& model : nets.models) {   // vendor time / deployed time: > 1, portkern faster
        const nlohmann::json* deployed = nullptr;
        const nlohmann::json* vendor = nullptr;
        for (const auto& row : entry["networks"]["rows"]) {
          if (row["model"] != model || row.contains("error")) continue;
          if (row["gemm"] == "deployed") deployed = &row;
          if (row["gemm"] == "vendor") vendor = &row;
        }
        if (deployed && vendor)
          summary.add({d.name(), "network " + model + " b1 (vendor time/deployed time)",
                       bench::fixed((*vendor)["batch_ms"].get<double>() / (*deployed)["batch_ms"].get<double>(), 3),
                       (*vendor)["engine"].get<std::string>(), "1"});
      }
      report["devices"].push_back(entry);
    }
    std::cout << "\n== summary (ratios > 1: portkern faster)\n";
    summary.print(std::cout);
    if (!json.empty()) write_json(json, report);
  });
}

}  // namespace portkern::cli
