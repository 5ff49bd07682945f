// portkern bench <operation> --device D ...: portkern next to its reference on the same data, same run.
#include <iostream>

#include "bench/device_info.hpp"
#include "bench/gemm_bench.hpp"
#include "bench/gemm_half_bench.hpp"
#include "bench/ladder_bench.hpp"
#include "bench/shapes.hpp"
#include "bench/transpose_bench.hpp"
#include "cli/commands.hpp"
#include "cli/options.hpp"

namespace portkern::cli {

void add_bench(CLI::App& app) {
  auto* bench = app.add_subcommand("bench", "Benchmark an operation against its reference");
  bench->require_subcommand(1);

  auto* transpose = bench->add_subcommand("transpose", "Portable tiled transpose vs hand-written (kernel-model overhead)");
  static std::string device = "cpu", json;
  static bool full = false;
  static int threads = 0;
  add_device_option(*transpose, device);
  transpose->add_flag("--full", full, "More and larger sizes");
  add_threads_option(*transpose, threads);
  add_output_option(*transpose, "--json", json, "Also write the rows as JSON to this file");
  transpose->callback([] {
    const Device d = Device::parse(device);
    std::cout << bench::summary(d) << '\n';
    const auto rows = bench::bench_transpose(d, {full, threads});
    bench::print_transpose(rows);
    if (!json.empty()) write_json(json, {{"device", bench::describe(d, false)}, {"rows", rows}});
  });

  auto* gemm = bench->add_subcommand("gemm", "GEMM vs OpenBLAS/oneDNN (CPU) or cuBLAS (GPU), same data, same run");
  static std::string gemm_device = "cpu", set = "square", shapes_file, family, config, gemm_json;
  static int gemm_threads = 0;
  static bool use_double = false, gemm_full = false, gemm_packed = false;
  add_device_option(*gemm, gemm_device);
  gemm->add_option("--set", set, "square, pow2, seed, nets, nets-quick, or ladder (seed 002's optimisation ladder)")
      ->capture_default_str();
  gemm->add_option("--shapes", shapes_file, "CSV with a header naming m,k,n,batch (instead of --set)");
  gemm->add_option("--family", family, "Report the best deployed configuration of this family (e.g. tiled)");
  gemm->add_option("--config", config,
                   "Time this configuration (any the build runs, e.g. a ladder step's) beside the library's pick")
      ->excludes(gemm->get_option("--family"));
  add_threads_option(*gemm, gemm_threads);
  gemm->add_flag("--double", use_double, "Double precision instead of single");
  static std::string gemm_dtype = "fp32";
  gemm->add_option("--dtype", gemm_dtype,
                   "fp32; bf16 or fp16: bfloat16 or IEEE half A and B with fp32 sums and C, beside oneDNN's matmul of "
                   "that type (CPU) or cuBLAS's (GPU)")
      ->check(CLI::IsMember({"fp32", "bf16", "fp16"}))
      ->capture_default_str()
      ->excludes(gemm->get_option("--double"));
  static std::string gemm_precision = "accurate";
  add_precision_option(*gemm, gemm_precision);
  gemm->add_flag("--full", gemm_full, "Longer samples");
  gemm->add_flag("--packed", gemm_packed,
                 "Time portkern's gemm_packed: A packed once per operand set (not timed), as MKL's packed API")
      ->excludes(gemm->get_option("--family"))
      ->excludes(gemm->get_option("--config"));
  add_output_option(*gemm, "--json", gemm_json, "Also write the rows as JSON to this file");
  gemm->callback([] {
    const Device d = Device::parse(gemm_device);
    if (!family.empty()) check_gemm_family("--family", gemm_device, family, false);
    std::cout << bench::summary(d) << '\n';
    if (set == "ladder" && shapes_file.empty()) {
      const auto result = bench::bench_ladder(d, 1280, gemm_threads);   // seed 002's size
      bench::print_ladder(result);
      if (!gemm_json.empty()) write_json(gemm_json, result);
      return;
    }
    bench::GemmBenchOptions options;
    options.shapes = shapes_file.empty() ? bench::gemm_set(set, d) : bench::read_gemm_shapes(shapes_file);
    options.family = family;
    options.config = config;
    options.threads = gemm_threads;
    options.double_precision = use_double;
    options.precision = *parse_precision(gemm_precision);
    options.quick = !gemm_full;
    options.packed = gemm_packed;
    const auto result = gemm_dtype == "fp32" ? bench::bench_gemm(d, options) : bench::bench_gemm_half(d, options, gemm_dtype);
    bench::print_gemm(result);
    if (!gemm_json.empty()) write_json(gemm_json, result);
  });

  add_bench_conv2d(*bench);
  add_bench_ops(*bench);
}

}  // namespace portkern::cli
