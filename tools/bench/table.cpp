#include "bench/table.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iomanip>

namespace portkern::bench {

void Table::print(std::ostream& out) const {
  std::vector<std::size_t> width(headers_.size());
  for (std::size_t c = 0; c < headers_.size(); ++c) {
    width[c] = headers_[c].size();
    for (const auto& row : rows_)
      if (c < row.size()) width[c] = std::max(width[c], row[c].size());
  }
  auto is_number = [](const std::string& s) {   // "12.5", "-", "87%", "1.2e-07": right-aligned
    if (s == "-") return true;
    char* end = nullptr;
    std::strtod(s.c_str(), &end);
    return end != s.c_str() && (*end == '\0' || (*end == '%' && end[1] == '\0'));
  };
  auto line = [&](const std::vector<std::string>& cells) {
    for (std::size_t c = 0; c < headers_.size(); ++c) {
      const std::string cell = c < cells.size() ? cells[c] : "";
      out << (c ? "  " : "") << (is_number(cell) ? std::right : std::left) << std::setw(int(width[c])) << cell;
    }
    out << '\n';
  };
  line(headers_);
  std::size_t total = 0;
  for (auto w : width) total += w + 2;
  out << std::string(total > 2 ? total - 2 : 0, '-') << '\n';
  for (const auto& row : rows_) line(row);
}

std::string fixed(double value, int digits) {
  if (std::isnan(value)) return "-";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, value);
  return buf;
}

}  // namespace portkern::bench
