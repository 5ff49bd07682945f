#include "bench/contest.hpp"

#include <algorithm>
#include <chrono>
#include <thread>

#include "bench/measure.hpp"

namespace portkern::bench {

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// (max - min) / median of the three rounds around the median (all of them when there are fewer): a round
// disturbed by another process is outvoted by the rounds that follow it.
double spread(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t drop = v.size() > 3 ? (v.size() - 3) / 2 : 0;
  const double lo = v[drop], hi = v[v.size() - 1 - drop], m = median(v);
  return m > 0 ? (hi - lo) / m : 0;
}

}  // namespace

ContestResult contest(Queue& queue, const std::vector<Contender>& contenders, const ContestOptions& options) {
  const std::size_t n = contenders.size();
  ContestResult result;
  result.round_ms.resize(n);
  if (n == 0) return result;
  const bool cpu = queue.device().is_cpu();
  auto run_round = [&](int round) {
    for (std::size_t turn = 0; turn < n; ++turn) {
      const std::size_t c = (turn + std::size_t(round)) % n;
      result.round_ms[c].push_back(measure(queue, contenders[c].call, options.sample_ms, options.samples).median_ms);
      if (contenders[c].rest) contenders[c].rest();
      if (cpu) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  };
  auto worst_spread = [&] {
    double worst = 0;
    for (const auto& rounds : result.round_ms) worst = std::max(worst, spread(rounds));
    return worst;
  };
  int round = 0;
  for (; round < std::max(options.rounds, 1); ++round) run_round(round);
  for (; round < options.max_rounds && worst_spread() > options.max_spread; ++round) run_round(round);
  result.rounds = round;
  for (const auto& rounds : result.round_ms) {
    result.median_ms.push_back(median(rounds));
    result.spread.push_back(spread(rounds));
  }
  return result;
}

ContestOptions default_contest(const Queue& queue, bool quick) {
  ContestOptions options;
  options.sample_ms = default_sample_ms(queue, quick);
  options.samples = quick ? 3 : 5;
  return options;
}

}  // namespace portkern::bench
