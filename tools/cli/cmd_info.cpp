// portkern info [--json] [--no-measure]: the devices present, their properties and measured ceilings.
#include <iostream>

#include "bench/device_info.hpp"
#include "bench/table.hpp"
#include "cli/commands.hpp"

namespace portkern::cli {

void add_info(CLI::App& app) {
  auto* cmd = app.add_subcommand("info", "List the devices, their properties and measured ceilings");
  static bool json = false, no_measure = false;
  cmd->add_flag("--json", json, "Print JSON instead of a table");
  cmd->add_flag("--no-measure", no_measure, "Skip the ceiling micro-benchmarks");
  cmd->callback([] {
    nlohmann::json all = nlohmann::json::array();
    for (const Device& d : devices()) all.push_back(bench::describe(d, !no_measure));
    if (json) {
      std::cout << nlohmann::json{{"devices", all}}.dump(2) << '\n';
      return;
    }
    bench::Table table({"device", "name", "arch", "units", "memory GiB", "clock MHz", "peak GFLOP/s",
                        "meas. GFLOP/s fp32", "meas. fp64", "peak GB/s", "meas. copy GB/s"});
    for (const auto& d : all) {
      const bool m = d.contains("measured");
      table.add({d["device"], d["name"], d["arch"], std::to_string(d["compute_units"].get<int>()),
                 bench::fixed(d["memory_bytes"].get<double>() / (1 << 30)), bench::fixed(d["clock_mhz"].get<double>(), 0),
                 bench::fixed(d["peak_gflops_fp32"].get<double>(), 0),
                 m ? bench::fixed(d["measured"]["gflops_fp32"].get<double>(), 0) : "-",
                 m ? bench::fixed(d["measured"]["gflops_fp64"].get<double>(), 0) : "-",
                 bench::fixed(d["peak_bandwidth_gbs"].get<double>(), 0),
                 m ? bench::fixed(d["measured"]["copy_gbs"].get<double>(), 1) : "-"});
    }
    table.print(std::cout);
  });
}

}  // namespace portkern::cli
