// portkern info [--json] [--no-measure]: the devices present, their properties and measured ceilings, and the
// device classes compiled into this build: which of them each device can execute and which one it uses.
#include <algorithm>
#include <iostream>

#include "bench/device_info.hpp"
#include "bench/table.hpp"
#include "cli/commands.hpp"
#include "portkern/blas.hpp"
#include "portkern/dnn.hpp"
#include "portkern/kernel/cpu/microkernel.hpp"
#include "portkern/runtime/device_class.hpp"

namespace portkern::cli {

namespace {

// Is the class's code in this build? CPU classes: their micro-kernels; CUDA classes: the CUDA back end.
bool compiled(const DeviceClass& c) {
#if PORTKERN_HAVE_CUDA
  constexpr bool cuda = true;
#else
  constexpr bool cuda = false;
#endif
  return c.backend == Backend::cpu ? kernel::cpu::microkernels<float>(c.cpu_isa) != nullptr : cuda;
}

// One row per class of the table: compiled in, and for each present device of its back end whether it can
// execute it and whether it is the one it uses.
nlohmann::json describe_classes() {
  nlohmann::json all = nlohmann::json::array();
  for (const DeviceClass& c : device_classes()) {
    nlohmann::json runs = nlohmann::json::array(), used_by = nlohmann::json::array();
    for (const Device& d : devices()) {
      if (d.backend() != c.backend) continue;
      if (c.runs_on(d.properties())) runs.push_back(d.name());
      if (device_class(d).name == c.name) used_by.push_back(d.name());
    }
    all.push_back({{"class", std::string(c.name)}, {"needs", std::string(c.needs)}, {"compiled", compiled(c)},
                   {"runs_on", runs}, {"used_by", used_by}});
  }
  return all;
}

// The GEMM registry's families per present device: the size of each family's space and how many of its
// configurations the device's deployment ships.
nlohmann::json describe_gemm_families() {
  nlohmann::json all = nlohmann::json::array();
  for (const Device& d : devices()) {
    const GemmDeployment deployed = gemm_deployment(d);
    for (const GemmFamily& f : gemm_families(d)) {
      std::size_t shipped = 0;
      for (std::size_t i = 0; i < deployed.families.size(); ++i)
        if (deployed.families[i] == f.name) shipped = deployed.configs[i].size();
      all.push_back({{"device", d.name()}, {"family", f.name}, {"space", f.space.size()}, {"deployed", shipped}});
    }
  }
  return all;
}

// The convolution registry's algorithms per present device: the size of each algorithm's space, how many of its
// configurations this build instantiates, and the one that runs when a caller names only the algorithm.
nlohmann::json describe_conv2d_algorithms() {
  nlohmann::json all = nlohmann::json::array();
  for (const Device& d : devices()) {
    const std::vector<Conv2dChoice> space = conv2d_space(d, false), built = conv2d_space(d);
    for (const std::string& a : conv2d_algorithms()) {
      auto of = [&](const std::vector<Conv2dChoice>& list) {
        return std::count_if(list.begin(), list.end(), [&](const Conv2dChoice& c) { return c.algorithm == a; });
      };
      all.push_back({{"device", d.name()}, {"algorithm", a}, {"space", of(space)}, {"instantiated", of(built)},
                     {"default", conv2d_default_config(d, a)}});
    }
  }
  return all;
}

std::string joined(const nlohmann::json& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : " ") + n.get<std::string>();
  return s.empty() ? "-" : s;
}

}  // namespace

void add_info(CLI::App& app) {
  auto* cmd = app.add_subcommand("info", "List the devices, their properties and measured ceilings");
  static bool json = false, no_measure = false;
  cmd->add_flag("--json", json, "Print JSON instead of a table");
  cmd->add_flag("--no-measure", no_measure, "Skip the ceiling micro-benchmarks");
  cmd->callback([] {
    nlohmann::json all = nlohmann::json::array();
    for (const Device& d : devices()) all.push_back(bench::describe(d, !no_measure));
    const nlohmann::json classes = describe_classes(), families = describe_gemm_families(),
                         algorithms = describe_conv2d_algorithms();
    if (json) {
      std::cout << nlohmann::json{{"devices", all},
                                  {"device_classes", classes},
                                  {"gemm_families", families},
                                  {"conv2d_algorithms", algorithms}}
                       .dump(2)
                << '\n';
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
    std::cout << "\ndevice classes (chosen at run time; PORTKERN_CPU_CLASS / PORTKERN_CUDA_CLASS force one)\n";
    bench::Table class_table({"class", "needs", "compiled", "runs on", "used by"});
    for (const auto& c : classes)
      class_table.add({c["class"], c["needs"], c["compiled"].get<bool>() ? "yes" : "no", joined(c["runs_on"]),
                       joined(c["used_by"])});
    class_table.print(std::cout);
    std::cout << "\nGEMM families (the registry, src/gemm/registry.cpp; space: what can be forced or tuned)\n";
    bench::Table family_table({"device", "family", "space", "deployed"});
    for (const auto& f : families)
      family_table.add({f["device"], f["family"], std::to_string(f["space"].get<std::size_t>()),
                        std::to_string(f["deployed"].get<std::size_t>())});
    family_table.print(std::cout);
    std::cout << "\nconv2d algorithms (the registry, src/conv2d/registry.cpp)\n";
    bench::Table algorithm_table({"device", "algorithm", "space", "instantiated", "default"});
    for (const auto& a : algorithms)
      algorithm_table.add({a["device"], a["algorithm"], std::to_string(a["space"].get<std::size_t>()),
                           std::to_string(a["instantiated"].get<std::size_t>()), a["default"]});
    algorithm_table.print(std::cout);
  });
}

}  // namespace portkern::cli
