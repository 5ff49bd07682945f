// portkern select gemm --device D --shapes FILE [--family F] [--json FILE]: what the deployment picks for
// each shape, and the path through its decision trees — without running anything.
#include <filesystem>
#include <iostream>

#include "bench/shapes.hpp"
#include "bench/table.hpp"
#include "cli/commands.hpp"
#include "portkern/blas.hpp"

namespace portkern::cli {

void add_select(CLI::App& app) {
  auto* select = app.add_subcommand("select", "Show the deployment's choice per shape (runs nothing)");
  select->require_subcommand(1);
  auto* gemm = select->add_subcommand("gemm", "GEMM");
  static std::string device = "cpu", shapes = "nets-quick", family, json;
  gemm->add_option("--device", device, "cpu or cuda:N (a device class's deployment is compiled in)")->capture_default_str();
  gemm->add_option("--shapes", shapes, "A CSV naming m,k,n,batch, or a set name")->capture_default_str();
  gemm->add_option("--family", family, "The pick within this family");
  gemm->add_option("--json", json, "Also write the rows as JSON to this file");
  gemm->callback([] {
    const Device d = Device::parse(device);
    const auto list = std::filesystem::exists(shapes) ? bench::read_gemm_shapes(shapes) : bench::gemm_set(shapes, d);
    nlohmann::json rows = nlohmann::json::array();
    bench::Table table({"m", "n", "k", "batch", "op", "family", "config", "path"});
    for (const auto& s : list) {
      const GemmSelection pick = select_gemm(d, s, family);
      rows.push_back({{"m", s.m}, {"n", s.n}, {"k", s.k}, {"batch", s.batch}, {"trans_a", s.trans_a},
                      {"trans_b", s.trans_b}, {"family", pick.family}, {"config", pick.config}, {"path", pick.path}});
      table.add({std::to_string(s.m), std::to_string(s.n), std::to_string(s.k), std::to_string(s.batch),
                 std::string(s.trans_a ? "T" : "N") + (s.trans_b ? "T" : "N"), pick.family, pick.config, pick.path});
    }
    std::cout << "deployment " << gemm_device_class(d) << '\n';
    table.print(std::cout);
    if (!json.empty()) write_json(json, {{"device_class", gemm_device_class(d)}, {"rows", rows}});
  });
}

}  // namespace portkern::cli
