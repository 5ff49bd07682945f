// portkern report [--full] [--json FILE]: the performance-portability report on every device present —
// for now the kernel model's overhead (transpose); GEMM, convolution and the operators join it.
#include <iostream>

#include "bench/device_info.hpp"
#include "bench/transpose_bench.hpp"
#include "cli/commands.hpp"

namespace portkern::cli {

void add_report(CLI::App& app) {
  auto* cmd = app.add_subcommand("report", "Run the performance-portability report on every device");
  static bool full = false;
  static int threads = 0;
  static std::string json;
  cmd->add_flag("--full", full, "Complete suites instead of the quick sizes");
  cmd->add_option("--threads", threads, "CPU threads (0: all)");
  cmd->add_option("--json", json, "Also write the report as JSON to this file");
  cmd->callback([] {
    nlohmann::json report = {{"devices", nlohmann::json::array()}};
    for (const Device& d : devices()) {
      std::cout << "\n== " << bench::summary(d) << "\n\n-- kernel model overhead: tiled transpose, portable vs "
                << (d.is_cpu() ? "plain OpenMP loop" : "hand-written CUDA") << '\n';
      nlohmann::json entry = {{"device", bench::describe(d, true)}};
      entry["transpose"] = bench::bench_transpose(d, {full, threads});
      bench::print_transpose(entry["transpose"]);
      report["devices"].push_back(entry);
    }
    if (!json.empty()) write_json(json, report);
  });
}

}  // namespace portkern::cli
