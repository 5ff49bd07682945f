#include "bench/vendor_figures.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "bench/table.hpp"

namespace portkern::bench {

namespace {

std::string scientific(const nlohmann::json& value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1e", value.is_number() ? value.get<double>() : NAN);
  return text;
}

std::string percent(double fraction) { return fixed(100 * fraction, 0) + "%"; }

}  // namespace

void add_vendor_figures(nlohmann::json& row, const std::vector<VendorFigure>& vendors, const std::string& reference) {
  nlohmann::json refs = nlohmann::json::object();
  const VendorFigure *best_ieee = nullptr, *best_tf32 = nullptr;
  for (const auto& v : vendors) {
    refs[v.name] = {{"gflops", v.gflops}, {"spread", v.spread}, {"precision", v.precision}, {"impl", v.impl},
                    {"max_rel_error", v.max_rel_error}};
    const VendorFigure*& slot = v.precision == "tf32" ? best_tf32 : best_ieee;
    if (v.gflops > 0 && (!slot || v.gflops > slot->gflops)) slot = &v;
  }
  const VendorFigure* best = reference == "tf32" && best_tf32 ? best_tf32 : best_ieee;
  row["refs"] = refs;
  row["ref_precision"] = best ? best->precision : "";
  row["ref_library"] = best ? nlohmann::json(best->name) : nlohmann::json(nullptr);
  row["ref_impl"] = best ? best->impl : "";
  row["ref_gflops"] = best ? best->gflops : 0.0;
  row["ref_spread"] = best ? best->spread : 0.0;
  row["ratio"] = best ? nlohmann::json(row["gflops"].get<double>() / best->gflops) : nlohmann::json(nullptr);
  if (best_tf32)
    row["ref_tf32"] = {{"library", best_tf32->name}, {"impl", best_tf32->impl}, {"gflops", best_tf32->gflops},
                       {"max_rel_error", best_tf32->max_rel_error}};
}

std::vector<std::string> vendor_headers(bool tf32) {
  std::vector<std::string> headers = {"vendor", "vendor GFLOP/s", "ratio", "spread", "max rel err"};
  if (tf32) headers.insert(headers.end(), {"TF32 vendor GFLOP/s", "TF32 err"});
  return headers;
}

std::vector<std::string> vendor_cells(const nlohmann::json& r, bool tf32) {
  const bool has_ref = r["ref_library"].is_string();
  const double spread = std::max(r.value("spread", 0.0), r.value("ref_spread", 0.0));
  std::vector<std::string> cells = {has_ref ? r["ref_library"].get<std::string>() : "-",
                                    has_ref ? fixed(r["ref_gflops"].get<double>()) : "-",
                                    has_ref ? fixed(r["ratio"].get<double>(), 3) : "-", percent(spread),
                                    scientific(r["max_rel_error"])};
  if (tf32) {
    const bool has_tf32 = r.contains("ref_tf32");
    cells.push_back(has_tf32 ? fixed(r["ref_tf32"]["gflops"].get<double>()) : "-");
    cells.push_back(has_tf32 ? scientific(r["ref_tf32"]["max_rel_error"]) : "-");
  }
  return cells;
}

void print_vendors(const nlohmann::json& result, std::ostream& out) {
  if (result.contains("vendors"))
    for (const auto& v : result["vendors"])
      out << "vendor " << v["name"].get<std::string>() << " (" << v["precision"].get<std::string>()
          << "): " << v["kernel"].get<std::string>() << '\n';
  const auto& load = result.value("load", nlohmann::json());
  if (load.is_object() && load["before"].is_object() && load["after"].is_object())
    out << "host load (1-minute average) before / after: " << fixed(load["before"]["avg1"].get<double>(), 2) << " / "
        << fixed(load["after"]["avg1"].get<double>(), 2) << '\n';
}

bool has_tf32(const nlohmann::json& rows) {
  return std::any_of(rows.begin(), rows.end(), [](const nlohmann::json& r) { return r.contains("ref_tf32"); });
}

double geomean(const std::vector<double>& values) {
  double log_sum = 0;
  int count = 0;
  for (const double v : values)
    if (v > 0) log_sum += std::log(v), ++count;
  return count ? std::exp(log_sum / count) : std::nan("");
}

double tf32_geomean_ratio(const nlohmann::json& rows) {
  std::vector<double> ratios;
  for (const auto& r : rows)
    if (r.contains("ref_tf32") && r["ref_tf32"]["gflops"].get<double>() > 0)
      ratios.push_back(r["gflops"].get<double>() / r["ref_tf32"]["gflops"].get<double>());
  return geomean(ratios);
}

}  // namespace portkern::bench
