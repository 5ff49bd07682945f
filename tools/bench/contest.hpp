// How a benchmark row compares portkern with the vendor libraries: interleaved rounds. Each round times every
// contender once with `measure` (warm-up, samples of back-to-back calls, median per call), in an order that
// rotates from round to round, so that no library always runs right after the same other one. After its turn
// a contender's `rest` puts its library's threads to sleep and on the CPU the benchmark pauses briefly, so
// each contender starts on quiet cores. On a 2-core machine what moves a figure is another busy process:
// every OpenMP barrier then waits for a time slice (docs/benchmarking.md has the measurement).
//
// A contender's figure is the median over rounds of its per-round medians; its spread is (max - min) /
// median over the three rounds around the median (all rounds when there are three). While some contender's
// spread exceeds `max_spread`, more rounds run, up to `max_rounds`: a round disturbed by another process is
// outvoted instead of becoming the figure. Every round's time is kept for the JSON.
#pragma once

#include <functional>
#include <vector>

#include "portkern/runtime/queue.hpp"

namespace portkern::bench {

struct Contender {
  std::function<void()> call;   // one call of the timed work
  std::function<void()> rest;   // after the contender's turn: let its threads go quiet (may be empty)
};

struct ContestOptions {
  double sample_ms = 20;   // the least duration of one sample (calls back to back)
  int samples = 5;         // samples per round; the round's figure is their median
  int rounds = 3;          // rounds always run
  int max_rounds = 7;      // rounds at most, while a spread stays above max_spread
  double max_spread = 0.10;
};

struct ContestResult {
  std::vector<double> median_ms;   // per contender, per call: median over rounds
  std::vector<double> spread;      // per contender: (max - min) / median of the central three rounds
  std::vector<std::vector<double>> round_ms;   // per contender, per round
  int rounds = 0;
};

ContestResult contest(Queue& queue, const std::vector<Contender>& contenders, const ContestOptions& options);

// The default options for a device: longer samples on the CPU, whose timer is the host clock; `quick` halves
// the samples' length.
ContestOptions default_contest(const Queue& queue, bool quick);

}  // namespace portkern::bench
