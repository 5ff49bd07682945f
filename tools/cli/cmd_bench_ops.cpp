// portkern bench ops: the DNN operator suite (seed 004), portable kernels next to their native CUDA twins.
#include <iostream>

#include "bench/device_info.hpp"
#include "bench/ops/op_bench.hpp"
#include "cli/commands.hpp"
#include "cli/options.hpp"

namespace portkern::cli {

void add_bench_ops(CLI::App& bench) {
  auto* ops = bench.add_subcommand("ops", "The DNN operators: time, GB/s (or GFLOP/s), native CUDA twin, error");
  static std::string device = "cpu", op, size = "default", json, dump;
  static int threads = 0;
  add_device_option(*ops, device);
  ops->add_option("--op", op, "One operator (default: all)");
  ops->add_option("--size", size, "default (the spec's sizes) or small (fits this machine, < 2 minutes)")
      ->check(CLI::IsMember({"default", "small"}))
      ->capture_default_str();
  add_threads_option(*ops, threads);
  add_output_option(*ops, "--json", json, "Also write the rows as JSON to this file");
  ops->add_option("--dump", dump, "Write inputs and outputs here for tools/ops/torch_compare.py");
  ops->callback([] {
    const Device d = Device::parse(device);
    std::cout << bench::summary(d) << '\n';
    const auto rows = bench::opsuite::bench_ops(d, {op, size == "small", threads, dump});
    bench::opsuite::print_ops(rows);
    if (!json.empty()) write_json(json, {{"device", bench::describe(d, false)}, {"rows", rows}});
  });
}

}  // namespace portkern::cli
