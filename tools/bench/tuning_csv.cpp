#include "bench/tuning_csv.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <vector>

#include "portkern/error.hpp"

namespace portkern::bench {

namespace {

constexpr const char* fn = "portkern tune";

std::vector<std::string_view> split(std::string_view line) {
  std::vector<std::string_view> cells;
  for (std::size_t begin = 0;;) {
    const std::size_t comma = line.find(',', begin);
    cells.push_back(line.substr(begin, comma == std::string_view::npos ? std::string_view::npos : comma - begin));
    if (comma == std::string_view::npos) return cells;
    begin = comma + 1;
  }
}

template <class T>
bool whole_number(std::string_view cell, T& value) {
  const auto [end, error] = std::from_chars(cell.data(), cell.data() + cell.size(), value);
  return !cell.empty() && error == std::errc() && end == cell.data() + cell.size();
}

// A row: as many cells as the header, none of the key empty, gflops a number, time_ms empty or a number,
// reps an integer >= 0.
bool well_formed(const std::vector<std::string_view>& cells, std::size_t columns) {
  if (cells.size() != columns) return false;
  for (std::size_t i = 0; i + 3 < columns; ++i)
    if (cells[i].empty()) return false;
  double gflops = 0, time_ms = 0;
  long reps = 0;
  return whole_number(cells[columns - 3], gflops) &&
         (cells[columns - 2].empty() || whole_number(cells[columns - 2], time_ms)) &&
         whole_number(cells[columns - 1], reps) && reps >= 0;
}

}  // namespace

TuningRows parse_tuning_rows(std::string_view text, const std::string& header, const std::string& source) {
  TuningRows rows;
  const std::size_t end_of_header = text.find('\n');
  if (end_of_header == std::string_view::npos) return rows;   // no whole header: a fresh file
  std::string_view first = text.substr(0, end_of_header);
  if (first.ends_with('\r')) first.remove_suffix(1);
  if (first != header)
    fail(fn, source + " has the header '" + std::string(first.substr(0, 200)) + "', expected '" + header + "'");
  const std::size_t columns = split(header).size();
  rows.whole_bytes = end_of_header + 1;
  std::size_t number = 1;
  for (std::size_t begin = rows.whole_bytes; begin < text.size();) {
    const std::size_t newline = text.find('\n', begin);
    if (newline == std::string_view::npos) break;   // a cut last row: not whole
    ++number;
    std::string_view line = text.substr(begin, newline - begin);
    if (line.ends_with('\r')) line.remove_suffix(1);
    rows.whole_bytes = begin = newline + 1;
    const auto cells = split(line);
    if (!well_formed(cells, columns)) {
      if (rows.malformed_lines++ == 0) rows.first_malformed = number;
      continue;
    }
    std::string key;
    for (std::size_t i = 2; i + 3 < columns; ++i) (key += (i > 2 ? "," : "")) += cells[i];
    rows.keys.insert(std::move(key));
  }
  return rows;
}

TuningCsv::TuningCsv(const std::string& path, const std::string& header) : path_(path) {
  namespace fs = std::filesystem;
  std::error_code error;
  const auto parent = fs::path(path).parent_path();
  if (!parent.empty() && !fs::exists(parent, error) && !fs::create_directories(parent, error))
    fail(fn, "cannot create the folder " + parent.string() + " for " + path + ": " + error.message());
  fd_ = open(path.c_str(), O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd_ < 0) fail(fn, "cannot write " + path + ": " + std::strerror(errno));
  std::string text;
  {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream all;
    all << in.rdbuf();
    text = all.str();
  }
  TuningRows rows;
  try {
    rows = parse_tuning_rows(text, header, path);
  } catch (const Error&) {
    close(fd_);
    fd_ = -1;
    throw;
  }
  if (rows.whole_bytes < text.size()) {
    std::cerr << "warning: " << path << ": the last row was cut short (" << text.size() - rows.whole_bytes
              << " bytes without a newline): removed, it is measured again\n";
    if (ftruncate(fd_, off_t(rows.whole_bytes)) != 0) fail(fn, "cannot repair " + path + ": " + std::strerror(errno));
  }
  if (rows.malformed_lines)
    std::cerr << "warning: " << path << ": " << rows.malformed_lines << " lines are not rows (the first: line "
              << rows.first_malformed << "): skipped, their measurements are taken again\n";
  done_ = std::move(rows.keys);
  if (rows.whole_bytes == 0) write_line(header + '\n');
}

TuningCsv::~TuningCsv() {
  if (fd_ >= 0) close(fd_);
}

void TuningCsv::write_line(const std::string& line) {
  for (std::size_t written = 0; written < line.size();) {
    const ssize_t n = write(fd_, line.data() + written, line.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail(fn, "writing " + path_ + " failed: " + std::strerror(errno));
    written += std::size_t(n);
  }
  if (fdatasync(fd_) != 0 && errno != EINVAL) fail(fn, "writing " + path_ + " failed: " + std::strerror(errno));
}

void TuningCsv::append(const std::string& device_class, const std::string& op, const std::string& key, double gflops,
                       double time_ms, long reps) {
  std::ostringstream line;
  line << device_class << ',' << op << ',' << key << ',' << gflops << ','
       << (reps > 0 ? std::to_string(time_ms) : std::string()) << ',' << reps << '\n';
  write_line(line.str());
  done_.insert(key);
}

}  // namespace portkern::bench
