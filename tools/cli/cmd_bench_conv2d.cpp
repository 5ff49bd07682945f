// portkern bench conv2d --device cpu|cuda:N --net vgg16|resnet50 --batch N [--algo A] [--threads N] [--epilogue]
//                       [--json F]
#include <iostream>

#include "bench/conv2d_bench.hpp"
#include "bench/device_info.hpp"
#include "cli/commands.hpp"
#include "cli/options.hpp"

namespace portkern::cli {

void add_bench_conv2d(CLI::App& bench) {
  auto* conv = bench.add_subcommand("conv2d", "2-D convolution vs oneDNN (CPU) or cuDNN (GPU), same data, same run");
  static std::string device = "cpu", net = "vgg16", json;
  static std::vector<std::string> algorithms;
  static std::int64_t batch = 1;
  static int threads = 0;
  static bool full = false;
  add_device_option(*conv, device);
  conv->add_option("--net", net, "vgg16, resnet50 or a shapes CSV")->capture_default_str();
  conv->add_option("--batch", batch, "Images per call")->capture_default_str()->check(positive_integer);
  std::string listed;
  for (const std::string& a : conv2d_algorithms()) listed += (listed.empty() ? "" : ", ") + a;
  conv->add_option("--algo", algorithms, "Only these algorithms (" + listed + ") or configurations");
  add_threads_option(*conv, threads);
  static std::string precision = "accurate";
  add_precision_option(*conv, precision);
  conv->add_flag("--full", full, "Longer samples");
  static bool epilogue = false;
  conv->add_flag("--epilogue", epilogue,
                 "Also time the pick with a bias, a residual and ReLU (the cost of the fused epilogue)");
  add_output_option(*conv, "--json", json, "Also write the rows as JSON to this file");
  conv->callback([] {
    const Device d = Device::parse(device);
    const auto names = bench::conv2d_bench_names(d);
    for (const auto& a : algorithms)
      if (std::find(names.begin(), names.end(), a) == names.end())
        usage_error("--algo", "'" + a + "' is neither an algorithm nor a configuration the benchmark measures (one of " +
                                  join(names) + ")");
    std::cout << bench::summary(d) << '\n';
    bench::Conv2dBenchOptions options;
    options.net = net;
    options.batch = batch;
    options.algorithms = algorithms;
    options.threads = threads;
    options.quick = !full;
    options.precision = *parse_precision(precision);
    options.epilogue = epilogue;
    const auto result = bench::bench_conv2d(d, options);
    bench::print_conv2d(result);
    if (!json.empty()) write_json(json, result);
  });
}

}  // namespace portkern::cli
