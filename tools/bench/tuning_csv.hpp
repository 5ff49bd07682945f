// The dataset file of `portkern tune`: long-format CSV, `device,op,<key columns>,gflops,time_ms,reps`,
// where the key columns are the family, the configuration and the shape. Resumable: the rows already in the
// file are known by their key and skipped by a re-run, and each new row is flushed as soon as it is measured,
// so an interrupted run loses nothing it measured (a row cut short is measured again).
#pragma once

#include <fstream>
#include <set>
#include <string>

namespace portkern::bench {

class TuningCsv {
 public:
  // Opens (creating it with `header` when new or empty) the dataset at `path`.
  TuningCsv(const std::string& path, const std::string& header);

  const std::string& path() const { return path_; }
  // Whether the row with this key ("family,config,shape...") is in the file.
  bool measured(const std::string& key) const { return done_.count(key) != 0; }
  // Appends a row; a failed measurement (gflops 0, reps 0) has an empty time.
  void append(const std::string& device_class, const std::string& op, const std::string& key, double gflops,
              double time_ms, long reps);

 private:
  std::string path_;
  std::set<std::string> done_;
  std::ofstream out_;
};

}  // namespace portkern::bench
