#include "bench/measure.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "portkern/runtime/timer.hpp"

namespace portkern::bench {

Measurement measure(Queue& queue, const std::function<void()>& call, double sample_ms, int samples) {
  Timer timer(queue);
  auto time_calls = [&](int calls) {
    timer.start();
    for (int i = 0; i < calls; ++i) call();
    timer.stop();
    return timer.elapsed_ms();
  };
  time_calls(1);   // warm-up: module load, first touch, clocks
  const double once = std::max(time_calls(1), 1e-4);
  Measurement m;
  m.calls_per_sample = int(std::clamp(std::ceil(sample_ms / once), 1.0, 100000.0));
  m.samples = std::max(samples, 1);
  std::vector<double> per_call;
  for (int s = 0; s < m.samples; ++s) per_call.push_back(time_calls(m.calls_per_sample) / m.calls_per_sample);
  std::sort(per_call.begin(), per_call.end());
  m.median_ms = per_call[per_call.size() / 2];
  m.min_ms = per_call.front();
  return m;
}

double time_once(Queue& queue, const std::function<void()>& call) {
  Timer timer(queue);
  timer.start();
  call();
  timer.stop();
  return timer.elapsed_ms();
}

Measurement tuning_measure(Queue& queue, const std::function<void()>& call, double once_ms, double slow_ms,
                           double sample_ms) {
  if (once_ms > slow_ms) return {once_ms, once_ms, 1, 1};
  return measure(queue, call, sample_ms, 3);
}

double default_sample_ms(const Queue& queue, bool quick) {
  if (queue.device().is_cuda()) return quick ? 5 : 10;
  return quick ? 20 : 50;
}

}  // namespace portkern::bench
