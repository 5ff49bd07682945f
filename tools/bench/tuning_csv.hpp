// The dataset file of `portkern tune`: long-format CSV, `device,op,<key columns>,gflops,time_ms,reps`,
// where the key columns are the family, the configuration and the shape. Resumable and safe to interrupt at
// any point (SIGKILL included): each row is measured, then written with one write(2) of the whole line and
// flushed to the disk (fdatasync), so the file only ever ends in the middle of a row when the machine itself
// stopped. On resume, a last line without its newline (a row cut short) is cut off the file with a warning
// and measured again; a whole line that is not a row (wrong number of cells, cells that are not numbers:
// left by an older portkern) is skipped with a warning and measured again. The rows already in the file are
// known by their key and skipped.
#pragma once

#include <cstddef>
#include <set>
#include <string>
#include <string_view>

namespace portkern::bench {

// What the text of a dataset holds.
struct TuningRows {
  std::set<std::string> keys;       // of the well-formed rows
  std::size_t whole_bytes = 0;      // the text up to the last newline (0 when the header is not whole)
  std::size_t malformed_lines = 0;  // whole lines that are not rows
  std::size_t first_malformed = 0;  // the line number of the first of them
};

// Parses the text of a dataset with this header; Error when its first line is whole and not `header`
// (`source` names the dataset in the message).
TuningRows parse_tuning_rows(std::string_view text, const std::string& header, const std::string& source);

class TuningCsv {
 public:
  // Opens the dataset at `path`, creating it (and its folder) with `header` when it is new or empty, and
  // cutting a partial last row off.
  TuningCsv(const std::string& path, const std::string& header);
  ~TuningCsv();
  TuningCsv(const TuningCsv&) = delete;
  TuningCsv& operator=(const TuningCsv&) = delete;

  const std::string& path() const { return path_; }
  // Whether the row with this key ("family,config,shape...") is in the file.
  bool measured(const std::string& key) const { return done_.count(key) != 0; }
  // Appends a row; a failed measurement (gflops 0, reps 0) has an empty time.
  void append(const std::string& device_class, const std::string& op, const std::string& key, double gflops,
              double time_ms, long reps);

 private:
  void write_line(const std::string& line);

  std::string path_;
  std::set<std::string> done_;
  int fd_ = -1;
};

}  // namespace portkern::bench
