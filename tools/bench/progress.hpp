// A progress line for long work: "[12/155] label  ETA 1m20s", rewritten in place on a terminal (stderr).
#pragma once

#include <chrono>
#include <cstdio>
#include <string>

#include <unistd.h>

namespace portkern::bench {

class Progress {
 public:
  explicit Progress(std::size_t total) : total_(total), start_(std::chrono::steady_clock::now()) {}

  void step(const std::string& label) {
    ++done_;
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    const double eta = done_ ? elapsed / double(done_) * double(total_ - done_) : 0;
    const bool tty = isatty(fileno(stderr));
    std::fprintf(stderr, "%s[%zu/%zu] %-48s ETA %dm%02ds%s", tty ? "\r" : "", done_, total_, label.c_str(),
                 int(eta) / 60, int(eta) % 60, tty ? "\033[K" : "\n");
    if (tty && done_ == total_) std::fputc('\n', stderr);
  }

 private:
  std::size_t total_, done_ = 0;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace portkern::bench
