// portkern bench <operation> --device D ...: portkern next to its reference on the same data, same run.
#include <iostream>

#include "bench/device_info.hpp"
#include "bench/transpose_bench.hpp"
#include "cli/commands.hpp"

namespace portkern::cli {

void add_bench(CLI::App& app) {
  auto* bench = app.add_subcommand("bench", "Benchmark an operation against its reference");
  bench->require_subcommand(1);

  auto* transpose = bench->add_subcommand("transpose", "Portable tiled transpose vs hand-written (kernel-model overhead)");
  static std::string device = "cpu", json;
  static bool full = false;
  static int threads = 0;
  transpose->add_option("--device", device, "cpu or cuda:N")->capture_default_str();
  transpose->add_flag("--full", full, "More and larger sizes");
  transpose->add_option("--threads", threads, "CPU threads (0: all)");
  transpose->add_option("--json", json, "Also write the rows as JSON to this file");
  transpose->callback([] {
    const Device d = Device::parse(device);
    std::cout << bench::summary(d) << '\n';
    const auto rows = bench::bench_transpose(d, {full, threads});
    bench::print_transpose(rows);
    if (!json.empty()) write_json(json, {{"device", bench::describe(d, false)}, {"rows", rows}});
  });
}

}  // namespace portkern::cli
