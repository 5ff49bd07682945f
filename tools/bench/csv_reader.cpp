#include "bench/csv_reader.hpp"

#include <charconv>
#include <filesystem>

#include "portkern/error.hpp"

namespace portkern::bench {

std::ifstream open_shapes_file(const std::string& path) {
  if (std::filesystem::is_directory(path)) fail(path, "a folder, not a shapes file");
  std::ifstream in(path);
  if (!in) fail(path, "cannot read the shapes file");
  return in;
}

namespace {

std::string_view trim(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(" \t\r") - first + 1);
}

bool skipped(std::string_view line) {
  const std::string_view t = trim(line);
  return t.empty() || t[0] == '#';
}

}  // namespace

std::int64_t parse_integer(std::string_view text, std::string_view what, std::int64_t min, std::int64_t max) {
  std::int64_t value = 0;
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  const auto range = [&] {
    return max == INT64_MAX ? "an integer >= " + std::to_string(min)
                            : "an integer in [" + std::to_string(min) + ", " + std::to_string(max) + "]";
  };
  if (error == std::errc::result_out_of_range)
    fail(what, "'" + std::string(text) + "' does not fit 64 bits (it must be " + range() + ")");
  if (text.empty() || error != std::errc() || stop != end)
    fail(what, "'" + std::string(text) + "' is not " + range());
  if (value < min || value > max) fail(what, "'" + std::string(text) + "' must be " + range());
  return value;
}

std::vector<std::string> split_csv_line(std::string_view line) {
  std::vector<std::string> cells;
  for (std::size_t begin = 0;;) {
    const std::size_t comma = line.find(',', begin);
    cells.emplace_back(trim(line.substr(begin, comma == std::string_view::npos ? std::string_view::npos : comma - begin)));
    if (comma == std::string_view::npos) return cells;
    begin = comma + 1;
  }
}

CsvReader::CsvReader(std::istream& in, std::string source) : in_(in), source_(std::move(source)) {
  std::string line;
  while (std::getline(in_, line)) {
    ++line_;
    if (skipped(line)) continue;
    header_ = split_csv_line(line);
    for (std::size_t i = 0; i < header_.size(); ++i) {
      if (header_[i].empty()) fail(source_ + ":" + std::to_string(line_), "the header's column " + std::to_string(i + 1) + " has no name");
      if (!index_.emplace(header_[i], i).second)
        fail(source_ + ":" + std::to_string(line_), "the header names the column '" + header_[i] + "' twice");
    }
    return;
  }
  fail(source_, "no header line (the file is empty)");
}

void CsvReader::require_columns(const std::vector<std::string>& columns) const {
  std::string all;
  for (const auto& c : columns) all += (all.empty() ? "" : ",") + c;
  for (const auto& c : columns)
    if (!has(c)) fail(source_, "the header names no column '" + c + "' (it needs " + all + ")");
}

bool CsvReader::next() {
  std::string line;
  while (std::getline(in_, line)) {
    ++line_;
    if (skipped(line)) continue;
    cells_ = split_csv_line(line);
    return true;
  }
  return false;
}

void CsvReader::fail_here(const std::string& message) const { fail(source_ + ":" + std::to_string(line_), message); }

std::string CsvReader::where(const std::string& column) const {
  return source_ + ":" + std::to_string(line_) + ": column '" + column + "' (" +
         std::to_string(index_.find(column)->second + 1) + ")";
}

std::size_t CsvReader::column_index(const std::string& column) const {
  const auto it = index_.find(column);
  if (it == index_.end()) fail(source_, "the header names no column '" + column + "'");
  const std::size_t i = it->second;
  if (i >= cells_.size())
    fail_here("the row has " + std::to_string(cells_.size()) + " cells, no value for column '" + column + "' (" +
              std::to_string(i + 1) + ")");
  if (i + 1 == header_.size() && cells_.size() > header_.size())
    fail_here("the row has " + std::to_string(cells_.size()) + " cells, the header names " +
              std::to_string(header_.size()) + " columns");
  if (cells_[i].empty()) fail(where(column), "empty cell");
  return i;
}

const std::string& CsvReader::text(const std::string& column) const { return cells_[column_index(column)]; }

std::int64_t CsvReader::integer(const std::string& column, std::int64_t min, std::int64_t max) const {
  return parse_integer(text(column), where(column), min, max);
}

std::int64_t CsvReader::integer_or(const std::string& column, std::int64_t min, std::int64_t max,
                                   std::int64_t fallback) const {
  return has(column) ? integer(column, min, max) : fallback;
}

}  // namespace portkern::bench
