// A terminal table: columns sized to their widest cell, numbers right-aligned.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

namespace portkern::bench {

class Table {
 public:
  explicit Table(std::vector<std::string> headers) : headers_(std::move(headers)) {}
  void add(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
  void print(std::ostream& out) const;

 private:
  std::vector<std::string> headers_;
  std::vector<std::vector<std::string>> rows_;
};

// A number with `digits` after the point ("-" for NaN).
std::string fixed(double value, int digits = 1);

// The cells a benchmark row ends with: the best vendor, its GFLOP/s, the ratio to it, the max relative error
// (from the row's "ref_library", "ref_gflops", "ratio", "max_rel_error").
std::vector<std::string> vendor_cells(const nlohmann::json& row);

}  // namespace portkern::bench
