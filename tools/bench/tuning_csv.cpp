#include "bench/tuning_csv.hpp"

#include <filesystem>
#include <sstream>
#include <vector>

#include "portkern/error.hpp"

namespace portkern::bench {

namespace {
std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> cells;
  std::stringstream row(line);
  for (std::string cell; std::getline(row, cell, ',');) cells.push_back(cell);
  if (!line.empty() && line.back() == ',') cells.emplace_back();   // an empty last cell
  return cells;
}
}  // namespace

TuningCsv::TuningCsv(const std::string& path, const std::string& header) : path_(path) {
  const auto parent = std::filesystem::path(path).parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent);
  const bool fresh = !std::filesystem::exists(path) || std::filesystem::file_size(path) == 0;
  const std::size_t columns = split(header).size();
  if (!fresh) {
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    if (line != header) fail("portkern tune", path + " has the header '" + line + "', expected '" + header + "'");
    while (std::getline(in, line)) {
      const auto cells = split(line);
      if (cells.size() != columns) continue;   // a row cut short by an interruption is measured again
      std::string key;
      for (std::size_t i = 2; i + 3 < columns; ++i) key += (i > 2 ? "," : "") + cells[i];
      done_.insert(key);
    }
  }
  out_.open(path, std::ios::app);
  if (!out_) fail("portkern tune", "cannot write " + path);
  if (fresh) out_ << header << std::endl;
}

void TuningCsv::append(const std::string& device_class, const std::string& op, const std::string& key, double gflops,
                       double time_ms, long reps) {
  out_ << device_class << ',' << op << ',' << key << ',' << gflops << ','
       << (reps > 0 ? std::to_string(time_ms) : std::string()) << ',' << reps << std::endl;
  done_.insert(key);
}

}  // namespace portkern::bench
