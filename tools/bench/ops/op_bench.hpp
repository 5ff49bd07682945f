// `portkern bench ops`: each DNN operator (seed 004) timed on its sizes, with the bytes it must move (or the
// FLOPs it must do, for the compute-bound four), its native CUDA twin on a GPU, oneDNN on the CPU where it
// has the primitive (tools/bench/ops/onednn.hpp), and its error against the float64 reference. Every
// operator registers its benchmark from its own file, tools/bench/ops/<op>.cpp:
//
//   PORTKERN_OP_BENCH(flip, /*compute_bound=*/false) {   // `ctx` is the OpContext
//     std::vector<OpResult> results;
//     ... upload inputs, results.push_back({variant, params, bytes, flops,
//                                           ctx.time([&] { portable call }),
//                                           ctx.time_native([&] { native twin })   // nullopt on the CPU
//                                           , max_error, tolerance});
//     return results;
//   }
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/measure.hpp"
#include "portkern/kernel/half.hpp"
#include "portkern/runtime/queue.hpp"

namespace portkern::bench::opsuite {

struct OpContext {
  Queue& queue;
  bool small = false;       // --size small: fits 24 GiB and 2 cores (whole suite < 2 minutes); else the spec's
  double sample_ms = 5;
  int samples = 5;
  std::string dump_dir;     // --dump DIR: write inputs and outputs for tools/ops/torch_compare.py
  std::string op;           // set by the driver

  bool on_gpu() const { return queue.device().is_cuda(); }
  Measurement time(const std::function<void()>& call) const { return measure(queue, call, sample_ms, samples); }
  // The native twin's time on a GPU; nothing on the CPU (there the portable kernel is the only one).
  std::optional<Measurement> time_native(const std::function<void()>& call) const {
    if (!on_gpu()) return std::nullopt;
    return time(call);
  }

  // Saves a host tensor of a variant under `name` (no-op without --dump); tools/ops/torch_compare.py reads
  // <dump_dir>/<op>/<variant slug>/manifest.json and the raw little-endian <name>.bin files.
  template <class T>
  void dump(const std::string& variant, const nlohmann::json& params, const std::string& name,
            const std::vector<T>& host, std::vector<std::int64_t> shape) const {
    if (!dump_dir.empty()) dump_bytes(variant, params, name, dtype_name<T>(), host.data(), host.size() * sizeof(T), shape);
  }

 private:
  template <class T>
  static const char* dtype_name() {
    if constexpr (std::is_same_v<T, float>) return "float32";
    else if constexpr (std::is_same_v<T, double>) return "float64";
    else if constexpr (std::is_same_v<T, half>) return "float16";
    else if constexpr (std::is_same_v<T, std::int32_t>) return "int32";
    else if constexpr (std::is_same_v<T, std::int64_t>) return "int64";
    else if constexpr (std::is_same_v<T, std::uint8_t>) return "uint8";
    else static_assert(sizeof(T) == 0, "no dtype name for this type");
  }
  void dump_bytes(const std::string& variant, const nlohmann::json& params, const std::string& name,
                  const char* dtype, const void* data, std::size_t bytes, const std::vector<std::int64_t>& shape) const;
};

// A vendor library's form of the row's work on the same input data (oneDNN on the CPU), its output checked
// over a buffer poisoned with NaN. No time: the vendor could not run it (note says why).
struct VendorResult {
  std::string name;                    // "onednn"
  std::string impl;                    // the implementation it ran, e.g. "jit:avx512_core"
  std::optional<Measurement> time;
  double max_error = 0;                // against the operator's float64 reference
  double tolerance = 0;                // the operator's, unless note says why it differs
  double bytes = 0;                    // the memory traffic of the vendor's form of the work
  std::string note;                    // any difference in the work done (precision, layout, extra traffic)
};

struct OpResult {
  std::string variant;                 // e.g. "f32 1024x1024x1024 dims 0,1,2"
  nlohmann::json params;               // what tools/ops/torch_ops/<op>.py needs to rebuild the call
  double bytes = 0;                    // the least memory traffic per call (reads + writes)
  double flops = 0;                    // floating-point operations per call (0 where not meaningful)
  Measurement portable;
  std::optional<Measurement> native;   // the CUDA twin, GPU only
  double max_error = 0, tolerance = 0; // against the reference, on this data
  std::optional<VendorResult> vendor;  // oneDNN on the CPU, where it has the primitive
};

using OpBench = std::vector<OpResult> (*)(OpContext&);

// max |got[i] - want[i]| over want's elements; infinity if any difference is NaN.
inline double max_abs_diff(const std::vector<float>& got, const std::vector<double>& want) {
  double worst = 0;
  for (std::size_t i = 0; i < want.size(); ++i) {
    const double d = std::abs(double(got[i]) - want[i]);
    worst = std::isnan(d) ? INFINITY : std::max(worst, d);
  }
  return worst;
}

// The spec's sweep for the channel operators (channelShuffle, channelSum): NCHW then NHWC, N x C at H = W =
// 224. Default N {1, 16, 64} x C {32, 512}, the corners and middle of the spec's 12 shapes (all 12 spend
// four minutes of the GPU machine's host time generating and checking 1.6e9-element tensors); small: N {1, 4}
// x C {32, 128} at 112 x 112.
struct ChannelShape {
  bool nhwc;
  std::int64_t n, c, h;   // w == h
  std::int64_t hw() const { return h * h; }
  std::int64_t numel() const { return n * c * h * h; }
  std::vector<std::int64_t> dims() const {   // the tensor's shape in its layout
    return nhwc ? std::vector<std::int64_t>{n, h, h, c} : std::vector<std::int64_t>{n, c, h, h};
  }
  std::string name() const;       // "NCHW 1x32x224x224"
  nlohmann::json params() const;  // {"layout", "n", "c", "h", "w"}
};
std::vector<ChannelShape> channel_sweep(bool small);

struct Registration {
  Registration(const char* op, bool compute_bound, OpBench bench);
};

struct OpBenchOptions {
  std::string op;         // one operator, or all
  bool small = false;
  int threads = 0;
  std::string dump_dir;
};

// Rows {"op", "variant", "size", "params", "time_ms", "bytes", "gbps", "gflops", "fraction_of_copy",
// "compute_bound", "native_time_ms", "ratio" (portable / native time), "max_error", "tolerance", "vendor",
// "vendor_impl", "vendor_time_ms", "vendor_gbps" (the vendor's bytes over its time), "vendor_max_error",
// "vendor_tolerance", "portable_vs_vendor" (vendor time / portable time: above 1, portkern is faster),
// "vendor_note", "ok"}; the vendor fields are null where the row has no vendor (vendor_note may still say
// why). "ok": the portable output within tolerance and, where the vendor ran, the vendor's within its own.
nlohmann::json bench_ops(const Device& device, const OpBenchOptions& options);
void print_ops(const nlohmann::json& rows);
std::vector<std::string> registered_ops();

}  // namespace portkern::bench::opsuite

#define PORTKERN_OP_BENCH(op, compute_bound)                                                        \
  static std::vector<::portkern::bench::opsuite::OpResult> bench_##op(::portkern::bench::opsuite::OpContext&); \
  static const ::portkern::bench::opsuite::Registration registration_##op(#op, compute_bound, bench_##op); \
  static std::vector<::portkern::bench::opsuite::OpResult> bench_##op([[maybe_unused]] ::portkern::bench::opsuite::OpContext& ctx)
