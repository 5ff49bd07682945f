// How every portkern benchmark times work: one warm-up call, then enough calls per sample that a sample
// lasts at least `sample_ms` (launch latency amortised), `samples` samples timed with the queue's device
// timer, and the median time per call.
#pragma once

#include <functional>

#include "portkern/runtime/queue.hpp"

namespace portkern::bench {

struct Measurement {
  double median_ms = 0;   // per call
  double min_ms = 0;      // per call, fastest sample
  int calls_per_sample = 0;
  int samples = 0;
};

Measurement measure(Queue& queue, const std::function<void()>& call, double sample_ms, int samples);

// A tuning dataset's time for a configuration whose call took `once_ms` once (after a warm-up): a
// configuration slower than `slow_ms` keeps that one time (the dataset needs its rank, not more of its slow
// calls), the others get `measure`'s median over three samples of `sample_ms`. calls_per_sample * samples
// is the number of calls timed.
Measurement tuning_measure(Queue& queue, const std::function<void()>& call, double once_ms, double slow_ms,
                           double sample_ms);

// The time of one call of `call`, on the queue's device timer.
double time_once(Queue& queue, const std::function<void()>& call);

// The sample length that suits a device: longer on the CPU, whose timer is the host clock.
double default_sample_ms(const Queue& queue, bool quick);

}  // namespace portkern::bench
