// Strict reading of the CSV files the tools take (GEMM and convolution shape sets): a header line naming the
// columns, then one row per line. Blank lines, lines starting with '#' and a '\r' before the newline are
// skipped; every other malformed thing is a portkern::Error naming the source, the line and the column:
//   layers.csv:3: column 'stride' (3): '0' must be an integer >= 1
// Numbers are read whole (std::from_chars over the entire cell: "12x", "1e3", " 12" with an inner space and
// values beyond 64 bits are errors). Cells are not quoted: a row may have more cells than the header only
// when nobody reads its last column (free text with commas, gemm_seed.csv's `source`).
#pragma once

#include <cstdint>
#include <fstream>
#include <istream>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace portkern::bench {

// The whole of `text` as an integer in [min, max]; else Error("<what>: '<text>' must be an integer ...").
std::int64_t parse_integer(std::string_view text, std::string_view what, std::int64_t min, std::int64_t max);

// The shapes file at `path`, open for reading; Error when it is a folder or cannot be read.
std::ifstream open_shapes_file(const std::string& path);

// Cells of one line split at commas, spaces and tabs around each cell removed.
std::vector<std::string> split_csv_line(std::string_view line);

class CsvReader {
 public:
  // Reads the header from `in`; `source` names the input in errors (a path). Error when there is none or it
  // names a column twice.
  CsvReader(std::istream& in, std::string source);

  // Error unless the header names every one of `columns` ("it needs m,k,n,batch").
  void require_columns(const std::vector<std::string>& columns) const;
  bool has(const std::string& column) const { return index_.count(column) != 0; }

  // Moves to the next row; false at the end of the input.
  bool next();
  int line() const { return line_; }

  // The current row's cell of `column` (Error when the row is too short or the cell empty).
  const std::string& text(const std::string& column) const;
  // The cell as an integer in [min, max]; `fallback` when the header has no such column.
  std::int64_t integer(const std::string& column, std::int64_t min, std::int64_t max) const;
  std::int64_t integer_or(const std::string& column, std::int64_t min, std::int64_t max, std::int64_t fallback) const;

  // Error("<source>:<line>: <message>") about the current row.
  [[noreturn]] void fail_here(const std::string& message) const;
  const std::string& source() const { return source_; }

 private:
  std::string where(const std::string& column) const;
  std::size_t column_index(const std::string& column) const;

  std::istream& in_;
  std::string source_;
  std::vector<std::string> header_;
  std::map<std::string, std::size_t, std::less<>> index_;
  std::vector<std::string> cells_;
  int line_ = 0;
};

}  // namespace portkern::bench
