// portkern tune gemm|conv2d --device D ... [--out FILE] [--deploy]: collect the benchmark dataset
// (resumable), and with --deploy analyse it and write the deployment header deploy/<device-class>/<op>.hpp.
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "bench/conv2d_tuner.hpp"
#include "bench/conv_layers.hpp"
#include "bench/shapes.hpp"
#include "bench/tuner.hpp"
#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "portkern/blas.hpp"
#include "portkern/error.hpp"

namespace portkern::cli {

namespace {
// The shape lists that name each shape's network: a deployment's recipe is chosen by leaving whole networks out of
// its training (analyze.py --networks; docs/tuning.md). GEMM's lists have a `net` column; conv2d's are the tuned
// layer lists themselves (`--nets`), a layer's network named before the '/' of its name, else by the list's file.
std::vector<std::string> gemm_network_lists() {
  std::vector<std::string> paths;
  for (const char* list : {"gemm_nets", "gemm_more_nets", "gemm_tune25", "gemm_unseen60", "gemm_large", "gemm_square"})
    paths.push_back(std::string(PORTKERN_SOURCE_DIR) + "/data/shapes/" + list + ".csv");
  return paths;
}

// The analysis pipeline (tools/tuning, in the project's virtual environment) over the dataset: tables,
// plots and the generated deploy/<device-class>/<op>.hpp.
void deploy(const Device& device, const std::string& op, const std::string& csv, const std::string& family,
            const std::vector<std::string>& network_lists, Precision precision = Precision::accurate) {
  const std::string root = PORTKERN_SOURCE_DIR, device_class = gemm_device_class(device);
  std::string python = root + "/.venv/bin/python";
  if (!std::filesystem::exists(python)) python = "python3";
  // A precision other than accurate: its own deployment (docs/precision.md), <op>_<precision>.hpp.
  std::string suffix;
  if (precision != Precision::accurate) suffix.append("_").append(name(precision));
  const std::string out = std::filesystem::path(csv).parent_path().string() + "/analysis-" +
                          (op == "gemm" ? family : op) + suffix;
  const std::string header = root + "/deploy/" + device_class + "/" + op + suffix + ".hpp";
  std::string command = python + " " + root + "/tools/tuning/analyze.py '" + csv + "' --out '" + out +
                              "' --op " + op + " --device " + device_class +
                              (family == "all" ? "" : " --family " + family) + " --deploy-header '" + header +
                              "' --device-class " + device_class + " --precision " + std::string(name(precision));
  if (!network_lists.empty()) command += " --networks";
  for (const auto& list : network_lists) command += " '" + list + "'";
  std::cerr << "+ " << command << '\n';
  if (std::system(command.c_str()) != 0) fail("portkern tune --deploy", "the analysis failed (see above)");
  std::cerr << "wrote " << header << ": rebuild portkern to ship it\n";
}

void add_tune_gemm(CLI::App& tune) {
  auto* gemm = tune.add_subcommand("gemm", "Tune GEMM");
  static std::string device = "cpu", shapes = "nets-quick", out;
  static bench::TuneOptions options;
  static bool run_deploy = false, analyse_only = false;
  add_device_option(*gemm, device);
  gemm->add_option("--family", options.family, "A GEMM family of the device (portkern info lists them), or all")->capture_default_str();
  gemm->add_option("--configs", options.configs, "default (the part the family tunes on the device by default; tiled: its staged mode's part for the back end, 32 on a CPU, 432 on a GPU), full (its whole space; tiled: 3664) or a substring of the names")->capture_default_str();
  gemm->add_option("--shapes", shapes, "nets, nets-quick, square, pow2, seed, or a CSV file naming m,k,n,batch")->capture_default_str();
  add_output_option(*gemm, "--out", out, "Dataset CSV (default data/tuning/<device-class>/gemm-<family>.csv)");
  gemm->add_option("--time-ms", options.time_ms, "Length of one sample (default 20 on the CPU, 2 on a GPU)")
      ->check(positive_finite);
  gemm->add_option("--pause-ms", options.pause_ms, "Pause between configurations")->check(CLI::Range(0, 60000));
  add_threads_option(*gemm, options.threads);
  gemm->add_option("--max-mflop", options.max_mflop, "Skip shapes of more MFLOP than this (to fit a time budget)")
      ->check(positive_finite);
  gemm->add_flag("--deploy", run_deploy, "Then analyse the dataset and write deploy/<device-class>/gemm.hpp");
  gemm->add_flag("--analyse-only", analyse_only, "Skip the measurements: analyse and deploy the dataset as it is");
  gemm->callback([] {
    const Device d = Device::parse(device);
    check_gemm_family("--family", device, options.family, true);
    const std::string csv = out.empty() ? bench::default_tuning_csv(d, options.family) : out;
    if (!analyse_only) {
      options.shapes = bench::gemm_shapes(shapes, d);
      options.out = csv;
      bench::tune_gemm(d, options);
    }
    if (run_deploy || analyse_only) deploy(d, "gemm", csv, options.family, gemm_network_lists());
  });
}

void add_tune_conv2d(CLI::App& tune) {
  auto* conv = tune.add_subcommand("conv2d", "Tune the convolution: every algorithm and configuration per layer");
  static std::string device = "cpu";
  static bench::ConvTuneOptions options;
  static bool run_deploy = false, analyse_only = false;
  add_device_option(*conv, device);
  conv->add_option("--nets", options.nets,
                   "Layer lists: vgg16, resnet50, more_nets, stems, ... (data/shapes/conv_<net>.csv) or CSV paths")
      ->capture_default_str();
  conv->add_option("--batches", options.batches, "Images per call; every layer is tuned at each")
      ->capture_default_str()
      ->check(positive_integer);
  add_output_option(*conv, "--out", options.out,
                    "Dataset CSV (default data/tuning/<device-class>/conv2d.csv, conv2d-<precision>.csv at ieee or tf32)");
  conv->add_option("--time-ms", options.time_ms, "Length of one sample (default 20 on the CPU, 2 on a GPU)")
      ->check(positive_finite);
  conv->add_option("--pause-ms", options.pause_ms, "Pause between configurations")->check(CLI::Range(0, 60000));
  add_threads_option(*conv, options.threads);
  conv->add_option("--max-mflop", options.max_mflop, "Skip shapes of more MFLOP than this (to fit a time budget)")
      ->check(positive_finite);
  static std::string conv_precision = "accurate";
  add_precision_option(*conv, conv_precision)->description(
      "Measure every configuration at this precision (accurate, ieee or tf32): a dataset per precision");
  conv->add_flag("--deploy", run_deploy,
                 "Then analyse the dataset and write deploy/<device-class>/conv2d.hpp (conv2d_<precision>.hpp)");
  conv->add_flag("--analyse-only", analyse_only, "Skip the measurements: analyse and deploy the dataset as it is");
  conv->callback([] {
    const Device d = Device::parse(device);
    options.precision = *parse_precision(conv_precision);
    const std::string csv = options.out.empty() ? bench::default_conv2d_tuning_csv(d, options.precision) : options.out;
    if (!analyse_only) bench::tune_conv2d(d, options);
    if (run_deploy || analyse_only) {
      std::vector<std::string> layer_lists;
      for (const auto& net : options.nets) layer_lists.push_back(bench::conv_shapes_path(net));
      deploy(d, "conv2d", csv, "all", layer_lists, options.precision);
    }
  });
}
}  // namespace

void add_tune(CLI::App& app) {
  auto* tune = app.add_subcommand("tune", "Benchmark every configuration over a shape set (seed 001's data collection)");
  tune->require_subcommand(1);
  add_tune_gemm(*tune);
  add_tune_conv2d(*tune);
}

}  // namespace portkern::cli
