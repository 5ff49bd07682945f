#include "bench/conv2d_tuner.hpp"

#include <chrono>
#include <iostream>
#include <limits>
#include <set>
#include <sstream>
#include <thread>

#include "bench/conv2d_bench.hpp"
#include "bench/conv2d_operands.hpp"
#include "bench/measure.hpp"
#include "bench/progress.hpp"
#include "bench/shapes.hpp"
#include "bench/tuning_csv.hpp"
#include "portkern/blas.hpp"
#include "portkern/error.hpp"

namespace portkern::bench {

namespace {

constexpr const char* header =
    "device,op,family,config,batch,in_h,in_w,in_c,out_h,out_w,out_c,window_h,window_w,stride_h,stride_w,pad_h,pad_w,"
    "gflops,time_ms,reps";

std::string shape_key(const Conv2dDesc& d) {
  std::ostringstream k;
  k << d.batch << ',' << d.in_h << ',' << d.in_w << ',' << d.in_c << ',' << d.out_h << ',' << d.out_w << ','
    << d.out_c << ',' << d.window_h << ',' << d.window_w << ',' << d.stride_h << ',' << d.stride_w << ','
    << d.pad_top << ',' << d.pad_left;
  return k.str();
}

// Every distinct descriptor of the nets' layers at each batch, in file order.
std::vector<Conv2dDesc> tuning_shapes(const ConvTuneOptions& options) {
  std::vector<Conv2dDesc> shapes;
  std::set<std::string> seen;
  for (const auto batch : options.batches)
    for (const auto& net : options.nets)
      for (const auto& layer : read_conv_layers(conv_shapes_path(net))) {
        const Conv2dDesc d = conv2d_complete(layer_desc(layer, batch));
        if (options.max_mflop > 0 && conv_flops(d) > options.max_mflop * 1e6) continue;
        if (!seen.insert(shape_key(d)).second) continue;
        shapes.push_back(d);
      }
  return shapes;
}

}  // namespace

std::string default_conv2d_tuning_csv(const Device& device, Precision precision) {
  std::string path = data_dir() + "/tuning/" + gemm_device_class(device) + "/conv2d";
  if (precision != Precision::accurate) path.append("-").append(name(precision));
  return path + ".csv";
}

void tune_conv2d(const Device& device, const ConvTuneOptions& options) {
  Queue q(device, options.threads);
  const auto configs = conv2d_space(device);
  const auto shapes = tuning_shapes(options);
  const std::string device_class = gemm_device_class(device);
  const double time_ms = options.time_ms > 0 ? options.time_ms : device.is_cpu() ? 20 : 2;
  const int pause_ms = options.pause_ms >= 0 ? options.pause_ms : device.is_cpu() ? 5 : 0;
  TuningCsv csv(options.out.empty() ? default_conv2d_tuning_csv(device, options.precision) : options.out, header);
  auto key = [](const Conv2dChoice& c, const Conv2dDesc& d) { return c.algorithm + ',' + c.config + ',' + shape_key(d); };

  std::size_t todo = 0;
  for (const auto& d : shapes)
    for (const auto& c : configs) todo += !csv.measured(key(c, d));
  std::cerr << "tuning conv2d: " << configs.size() << " configurations x " << shapes.size() << " shapes on "
            << device.name() << ": " << todo << " to measure, " << (configs.size() * shapes.size() - todo)
            << " already in " << csv.path() << '\n';
  Progress progress(todo);

  for (const auto& d : shapes) {
    std::unique_ptr<ConvOperands> data;
    for (Conv2dChoice c : configs) {
      if (csv.measured(key(c, d))) continue;
      c.precision = options.precision;   // a configuration its arithmetic rules out there "does not apply"
      double gflops = 0, median_ms = 0;
      long reps = 0;
      std::string failure;
      if (!conv2d_supports(device, d, c, &failure)) {
        csv.append(device_class, "conv2d", key(c, d), 0, 0, 0);
        progress.step(c.config + " (does not apply)");
        continue;
      }
      try {
        if (!data) data = std::make_unique<ConvOperands>(q, d);
        const auto call = data->call(c);
        data->poison();
        const double first = time_once(q, call);
        const double error = data->max_rel_error();
        const double tolerance = options.precision == Precision::tf32 ? 4e-3 : 1e-3;   // TF32: 2^-11 per operand
        if (!(error < tolerance)) throw Error("wrong result: relative error " + std::to_string(error));
        // A configuration far slower than a sample keeps the time of its checked call: the CPU's direct
        // loops take seconds per call on the large layers (5 samples' worth covers a first call's warm-up).
        const Measurement m = tuning_measure(q, call, first, 5 * time_ms, time_ms);
        median_ms = m.median_ms;
        reps = long(m.calls_per_sample) * m.samples;
        gflops = data->flops() / (median_ms * 1e-3) / 1e9;
      } catch (const Error& e) {
        failure = e.what();
        reps = 0;
        data.reset();
        q = Queue(device, options.threads);   // a failed launch may leave the queue in any state
      }
      csv.append(device_class, "conv2d", key(c, d), gflops, median_ms, reps);
      progress.step(c.config + (reps ? "" : " (failed: " + failure + ")"));
      if (pause_ms) std::this_thread::sleep_for(std::chrono::milliseconds(pause_ms));
    }
  }
}

}  // namespace portkern::bench
