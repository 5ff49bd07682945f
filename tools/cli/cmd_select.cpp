// portkern select gemm --device D --shapes FILE [--family F] [--json FILE] and
// portkern select conv2d --device D --nets N... --batches B... [--json FILE]: what the deployment picks for
// each shape, and the path through its decision trees — without running anything.
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "bench/conv2d_bench.hpp"
#include "bench/shapes.hpp"
#include "bench/table.hpp"
#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "portkern/blas.hpp"
#include "portkern/dnn.hpp"
#include "portkern/runtime/device_class.hpp"

namespace portkern::cli {

namespace {

// "device class cpu-avx512 (chosen at run time: CPUID avx2 fma ...)", or "(forced by PORTKERN_CPU_CLASS)".
void print_device_class(const Device& d) {
  const DeviceClass& c = device_class(d);
  const char* variable = d.is_cpu() ? "PORTKERN_CPU_CLASS" : "PORTKERN_CUDA_CLASS";
  const char* forced = std::getenv(variable);
  std::cout << "device class " << c.name << " (deployment deploy/" << c.name << "/; "
            << (forced && *forced ? "forced by " + std::string(variable)
                                  : "chosen at run time: " + std::string(c.needs))
            << ")\n";
}

void add_select_gemm(CLI::App& select) {
  auto* gemm = select.add_subcommand("gemm", "GEMM");
  static std::string device = "cpu", shapes = "nets-quick", family, json;
  add_device_option(*gemm, device, "cpu or cuda:N (its device class is chosen at run time)");
  gemm->add_option("--shapes", shapes, "A CSV naming m,k,n,batch, or a set name")->capture_default_str();
  gemm->add_option("--family", family, "The pick within this family");
  static std::string gemm_precision = "accurate";
  add_precision_option(*gemm, gemm_precision);
  add_output_option(*gemm, "--json", json, "Also write the rows as JSON to this file");
  gemm->callback([] {
    const Device d = Device::parse(device);
    if (!family.empty()) check_gemm_family("--family", device, family, false);
    const auto list = bench::gemm_shapes(shapes, d);
    nlohmann::json rows = nlohmann::json::array();
    bench::Table table({"m", "n", "k", "batch", "op", "family", "config", "path"});
    for (const auto& s : list) {
      const GemmSelection pick = select_gemm(d, s, family, *parse_precision(gemm_precision));
      rows.push_back({{"m", s.m}, {"n", s.n}, {"k", s.k}, {"batch", s.batch}, {"trans_a", s.trans_a},
                      {"trans_b", s.trans_b}, {"family", pick.family}, {"config", pick.config}, {"path", pick.path}});
      table.add({std::to_string(s.m), std::to_string(s.n), std::to_string(s.k), std::to_string(s.batch),
                 std::string(s.trans_a ? "T" : "N") + (s.trans_b ? "T" : "N"), pick.family, pick.config, pick.path});
    }
    print_device_class(d);
    table.print(std::cout);
    if (!json.empty())
      write_json(json, {{"device_class", gemm_device_class(d)}, {"precision", gemm_precision}, {"rows", rows}});
  });
}

void add_select_conv2d(CLI::App& select) {
  auto* conv = select.add_subcommand("conv2d", "2-D convolution");
  static std::string device = "cpu", json;
  static std::vector<std::string> nets = {"resnet50", "vgg16"};
  static std::vector<std::int64_t> batches = {1};
  add_device_option(*conv, device, "cpu or cuda:N (its device class is chosen at run time)");
  conv->add_option("--nets", nets, "vgg16, resnet50 (data/shapes/conv_<net>.csv) or shape CSVs")->capture_default_str();
  conv->add_option("--batches", batches, "Images per call")->capture_default_str()->check(positive_integer);
  static std::string conv_precision = "accurate";
  add_precision_option(*conv, conv_precision);
  add_output_option(*conv, "--json", json, "Also write the rows as JSON to this file");
  conv->callback([] {
    const Device d = Device::parse(device);
    nlohmann::json rows = nlohmann::json::array();
    bench::Table table({"net", "layer", "batch", "shape", "algorithm", "config", "path"});
    for (const auto& net : nets)
      for (const auto batch : batches)
        for (const auto& layer : bench::read_conv_layers(bench::conv_shapes_path(net))) {
          const Conv2dDesc desc = conv2d_complete(bench::layer_desc(layer, batch));
          const Precision precision = *parse_precision(conv_precision);
          const Conv2dSelection pick = conv2d_select(d, desc, precision);
          nlohmann::json applies = nlohmann::json::object();   // each algorithm's rule (the tuning features check it)
          for (const std::string& algorithm : conv2d_algorithms())
            applies[algorithm] = conv2d_supports(d, desc, {algorithm, "", precision});
          rows.push_back({{"net", net}, {"layer", layer.name}, {"batch", batch}, {"window", layer.window},
                          {"stride", layer.stride}, {"in_h", layer.in_h}, {"in_w", layer.in_w}, {"in_c", layer.in_c},
                          {"out_h", desc.out_h}, {"out_w", desc.out_w}, {"out_k", layer.out_k},
                          {"pad_h", desc.pad_top}, {"pad_w", desc.pad_left}, {"groups", desc.groups}, {"applies", applies},
                          {"algorithm", pick.algorithm}, {"config", pick.config}, {"path", pick.reason}});
          table.add({net, layer.name, std::to_string(batch), bench::layer_label(layer), pick.algorithm, pick.config, pick.reason});
        }
    print_device_class(d);
    table.print(std::cout);
    if (!json.empty()) write_json(json, {{"device_class", gemm_device_class(d)}, {"rows", rows}});
  });
}

}  // namespace

void add_select(CLI::App& app) {
  auto* select = app.add_subcommand("select", "Show the deployment's choice per shape (runs nothing)");
  select->require_subcommand(1);
  add_select_gemm(*select);
  add_select_conv2d(*select);
}

}  // namespace portkern::cli
