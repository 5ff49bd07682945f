#include "bench/ops/op_bench.hpp"

#include <cctype>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "bench/ops/onednn.hpp"
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

// The vendor's fields of a row (null where it has none, or where it did not run) and the row's "ok".
void add_vendor(nlohmann::json& row, const OpResult& r) {
  const auto& v = r.vendor;
  for (const char* key : {"vendor", "vendor_impl", "vendor_time_ms", "vendor_gbps", "vendor_max_error",
                          "vendor_tolerance", "portable_vs_vendor", "vendor_note"})
    row[key] = nullptr;
  if (v) row["vendor"] = v->name;
  if (v && !v->note.empty()) row["vendor_note"] = v->note;
  const bool ran = v && v->time;
  if (ran) {
    row["vendor_impl"] = v->impl;
    row["vendor_time_ms"] = v->time->median_ms;
    row["vendor_gbps"] = v->bytes / (v->time->median_ms * 1e-3) / 1e9;
    row["vendor_max_error"] = v->max_error;
    row["vendor_tolerance"] = v->tolerance;
    row["portable_vs_vendor"] = v->time->median_ms / r.portable.median_ms;
  }
  row["ok"] = r.max_error <= r.tolerance && (!ran || v->max_error <= v->tolerance);
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
                            {"tolerance", r.tolerance}};
      add_vendor(row, r);
      rows.push_back(row);
    }
    progress.step(op);
  }
  return rows;
}

// The native columns where a row has a twin (a GPU), the vendor columns where a row has a vendor (oneDNN on
// the CPU), then the vendors' notes, one per operator and note (with its rows where not all of the operator's).
void print_ops(const nlohmann::json& rows) {
  const auto any = [&](const char* key) {
    return std::any_of(rows.begin(), rows.end(),
                       [&](const nlohmann::json& r) { return !r.value(key, nlohmann::json()).is_null(); });
  };
  const bool native = any("native_time_ms"), vendor = any("vendor");
  std::vector<std::string> headers = {"op", "variant", "ms", "GB/s", "of copy", "GFLOP/s"};
  if (native) headers.insert(headers.end(), {"native ms", "portable/native"});
  headers.push_back("max err");
  if (vendor)
    headers.insert(headers.end(), {"vendor", "impl", "vendor ms", "vendor GB/s", "vendor/portable", "vendor err"});
  headers.push_back("ok");
  Table table(headers);
  auto number = [](const nlohmann::json& v, int digits) { return v.is_null() ? std::string("-") : fixed(v.get<double>(), digits); };
  auto error = [](const nlohmann::json& v) {
    if (v.is_null()) return std::string("-");
    char text[32];
    std::snprintf(text, sizeof text, "%.1e", v.get<double>());
    return std::string(text);
  };
  auto text = [](const nlohmann::json& v) { return v.is_null() ? std::string("-") : v.get<std::string>(); };
  std::map<std::string, int> op_rows;
  std::vector<std::pair<std::string, std::string>> notes;   // (op, note), first seen first
  std::map<std::pair<std::string, std::string>, std::vector<std::string>> noted;   // their rows' variants
  for (const auto& r : rows) {
    std::vector<std::string> cells = {r["op"].get<std::string>(), r["variant"].get<std::string>(),
                                      number(r["time_ms"], 3), number(r["gbps"], 1),
                                      fixed(100 * r["fraction_of_copy"].get<double>(), 0) + "%",
                                      number(r["gflops"], 1)};
    if (native) cells.insert(cells.end(), {number(r["native_time_ms"], 3), number(r["ratio"], 3)});
    cells.push_back(error(r["max_error"]));
    if (vendor)
      cells.insert(cells.end(), {text(r["vendor"]), text(r["vendor_impl"]), number(r["vendor_time_ms"], 3),
                                 number(r["vendor_gbps"], 1), number(r["portable_vs_vendor"], 3),
                                 error(r["vendor_max_error"])});
    cells.push_back(r["ok"].get<bool>() ? "yes" : "NO");
    table.add(cells);
    const std::pair<std::string, std::string> note = {r["op"].get<std::string>(),
                                                      text(r.value("vendor_note", nlohmann::json()))};
    ++op_rows[note.first];
    if (note.second == "-") continue;
    if (!noted.count(note)) notes.push_back(note);
    noted[note].push_back(r["variant"].get<std::string>());
  }
  table.print(std::cout);
  if (!vendor) return;
  std::cout << "vendor/portable: the vendor's time over portkern's on the same data (above 1: portkern is faster); "
               "vendor err: its output over a NaN-poisoned buffer against the same float64 reference";
  const std::string onednn_version = onednn::version();
  if (!onednn_version.empty()) std::cout << "; " << onednn_version;
  std::cout << '\n';
  for (const auto& [op, note] : notes) {   // the rows it concerns, unless it is every row of the operator
    const auto& variants = noted[{op, note}];
    std::string rows_of;
    if (variants.size() < std::size_t(op_rows[op])) {
      for (const auto& variant : variants) rows_of += (rows_of.empty() ? " (" : ", ") + variant;
      rows_of += ")";
    }
    std::cout << "  " << op << rows_of << ": " << note << '\n';
  }
}

}  // namespace portkern::bench::opsuite
