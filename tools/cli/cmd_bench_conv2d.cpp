// portkern bench conv2d --device cpu|cuda:N --net vgg16|resnet50 --batch N [--algo A] [--threads N] [--json F]
#include <iostream>

#include "bench/conv2d_bench.hpp"
#include "bench/device_info.hpp"
#include "cli/commands.hpp"

namespace portkern::cli {

void add_bench_conv2d(CLI::App& bench) {
  auto* conv = bench.add_subcommand("conv2d", "2-D convolution vs oneDNN (CPU) or cuDNN (GPU), same data, same run");
  static std::string device = "cpu", net = "vgg16", json;
  static std::vector<std::string> algorithms;
  static std::int64_t batch = 1;
  static int threads = 0;
  static bool full = false;
  conv->add_option("--device", device, "cpu or cuda:N")->capture_default_str();
  conv->add_option("--net", net, "vgg16, resnet50 or a shapes CSV")->capture_default_str();
  conv->add_option("--batch", batch, "Images per call")->capture_default_str();
  conv->add_option("--algo", algorithms, "Only these algorithms (direct, tiled, im2col, gemm_1x1, winograd) or configs");
  conv->add_option("--threads", threads, "CPU threads (0: all)");
  conv->add_flag("--full", full, "Longer samples");
  conv->add_option("--json", json, "Also write the rows as JSON to this file");
  conv->callback([] {
    const Device d = Device::parse(device);
    std::cout << bench::summary(d) << '\n';
    bench::Conv2dBenchOptions options;
    options.net = net;
    options.batch = batch;
    options.algorithms = algorithms;
    options.threads = threads;
    options.quick = !full;
    const auto result = bench::bench_conv2d(d, options);
    bench::print_conv2d(result);
    if (!json.empty()) write_json(json, result);
  });
}

}  // namespace portkern::cli
