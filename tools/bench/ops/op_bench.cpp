#include "bench/ops/op_bench.hpp"

#include <cctype>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "bench/progress.hpp"
#include "bench/table.hpp"
#include "portkern/error.hpp"

namespace portkern::bench::opsuite {

namespace {

struct Entry {
  bool compute_bound;
  OpBench bench;
};

std::map<std::string, Entry>& registry() {
  static std::map<std::string, Entry> entries;
  return entries;
}

std::string slug(const std::string& text) {
  std::string s;
  for (char c : text) s += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return s;
}

}  // namespace

Registration::Registration(const char* op, bool compute_bound, OpBench bench) {
  registry()[op] = {compute_bound, bench};
}

std::vector<std::string> registered_ops() {
  std::vector<std::string> names;
  for (const auto& [name, entry] : registry()) names.push_back(name);
  return names;
}

void OpContext::dump_bytes(const std::string& variant, const nlohmann::json& params, const std::string& name,
                           const char* dtype, const void* data, std::size_t bytes,
                           const std::vector<std::int64_t>& shape) const {
  const std::filesystem::path dir = std::filesystem::path(dump_dir) / op / slug(variant);
  std::filesystem::create_directories(dir);
  const auto manifest_path = dir / "manifest.json";
  nlohmann::json manifest = {{"op", op}, {"variant", variant}, {"params", params}, {"tensors", nlohmann::json::object()}};
  if (std::filesystem::exists(manifest_path)) manifest = nlohmann::json::parse(std::ifstream(manifest_path));
  manifest["tensors"][name] = {{"dtype", dtype}, {"shape", shape}, {"file", name + ".bin"}};
  std::ofstream(dir / (name + ".bin"), std::ios::binary).write(static_cast<const char*>(data), std::streamsize(bytes));
  std::ofstream(manifest_path) << manifest.dump(2);
}

std::string ChannelShape::name() const {
  const std::string side = std::to_string(h);
  return std::string(nhwc ? "NHWC " : "NCHW ") + std::to_string(n) + "x" + std::to_string(c) + "x" + side + "x" + side;
}

nlohmann::json ChannelShape::params() const {
  return {{"layout", nhwc ? "nhwc" : "nchw"}, {"n", n}, {"c", c}, {"h", h}, {"w", h}};
}

std::vector<ChannelShape> channel_sweep(bool small) {
  const std::vector<std::int64_t> ns = small ? std::vector<std::int64_t>{1, 4} : std::vector<std::int64_t>{1, 16, 64};
  const std::vector<std::int64_t> cs = small ? std::vector<std::int64_t>{32, 128} : std::vector<std::int64_t>{32, 512};
  std::vector<ChannelShape> shapes;
  for (const bool nhwc : {false, true})
    for (const std::int64_t n : ns)
      for (const std::int64_t c : cs) shapes.push_back({nhwc, n, c, small ? 112 : 224});
  return shapes;
}

nlohmann::json bench_ops(const Device& device, const OpBenchOptions& options) {
  if (!options.op.empty() && !registry().count(options.op)) {
    std::string known;
    for (const auto& name : registered_ops()) known += " " + name;
    fail("portkern bench ops", "unknown operator '" + options.op + "'; known:" + known);
  }
  Queue queue(device, options.threads);
  const double copy_gbs = measure_ceilings(device).copy_gbs;
  OpContext ctx{queue, options.small, default_sample_ms(queue, true), 5, options.dump_dir, ""};
  nlohmann::json rows = nlohmann::json::array();
  std::vector<std::string> ops = options.op.empty() ? registered_ops() : std::vector<std::string>{options.op};
  Progress progress(ops.size());
  for (const auto& op : ops) {
    const Entry& entry = registry().at(op);
    ctx.op = op;
    for (const OpResult& r : entry.bench(ctx)) {
      const double seconds = r.portable.median_ms * 1e-3;
      nlohmann::json row = {{"op", op},
                            {"variant", r.variant},
                            {"size", options.small ? "small" : "default"},
                            {"params", r.params},
                            {"time_ms", r.portable.median_ms},
                            {"bytes", r.bytes},
                            {"gbps", r.bytes / seconds / 1e9},
                            {"gflops", r.flops > 0 ? nlohmann::json(r.flops / seconds / 1e9) : nlohmann::json()},
                            {"fraction_of_copy", r.bytes / seconds / 1e9 / copy_gbs},
                            {"compute_bound", entry.compute_bound},
                            {"native_time_ms", r.native ? nlohmann::json(r.native->median_ms) : nlohmann::json()},
                            {"ratio", r.native ? nlohmann::json(r.portable.median_ms / r.native->median_ms)
                                               : nlohmann::json()},
                            {"max_error", r.max_error},
                            {"tolerance", r.tolerance},
                            {"ok", r.max_error <= r.tolerance}};
      rows.push_back(row);
    }
    progress.step(op);
  }
  return rows;
}

void print_ops(const nlohmann::json& rows) {
  Table table({"op", "variant", "ms", "GB/s", "of copy", "GFLOP/s", "native ms", "portable/native", "max err", "ok"});
  auto number = [](const nlohmann::json& v, int digits) { return v.is_null() ? std::string("-") : fixed(v.get<double>(), digits); };
  for (const auto& r : rows) {
    char err[32];
    std::snprintf(err, sizeof err, "%.1e", r["max_error"].get<double>());
    table.add({r["op"].get<std::string>(), r["variant"].get<std::string>(), number(r["time_ms"], 3),
               number(r["gbps"], 1), fixed(100 * r["fraction_of_copy"].get<double>(), 0) + "%", number(r["gflops"], 1),
               number(r["native_time_ms"], 3), number(r["ratio"], 3), err, r["ok"].get<bool>() ? "yes" : "NO"});
  }
  table.print(std::cout);
}

}  // namespace portkern::bench::opsuite
