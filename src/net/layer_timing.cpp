#include "net/layer_timing.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <vector>

namespace portkern::net_impl {

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

// GPU: the best of three samples, each the mean of enough calls to fill about 2 ms (one call where one
// takes longer), after a first call that warms caches and leases scratch memory.
double back_to_back_ms(Queue& q, const std::function<void()>& call) {
  auto start = Clock::now();
  call();
  q.wait();
  const int calls = std::clamp(int(2.0 / std::max(ms_since(start), 1e-3)), 1, 50);
  double best = 1e300;
  for (int sample = 0; sample < 3; ++sample) {
    start = Clock::now();
    for (int i = 0; i < calls; ++i) call();
    q.wait();
    best = std::min(best, ms_since(start) / calls);
  }
  return best;
}

// Reads every cache line of `data` on the queue's threads (each thread a contiguous share); returns a sum
// the compiler cannot drop.
float touch(Queue& q, std::span<const float> data) {
  constexpr std::size_t line = 64 / sizeof(float);
  const std::int64_t lines = std::int64_t((data.size() + line - 1) / line);
  float sum = 0;
#pragma omp parallel for num_threads(q.cpu_threads()) schedule(static) reduction(+ : sum)
  for (std::int64_t i = 0; i < lines; ++i) sum += data[std::size_t(i) * line];
  return sum;
}

// Replaces the private caches (L1, L2) of the queue's threads with lines of a buffer four times their size.
float evict_private_caches(Queue& q) {
  const long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
  const std::size_t per_thread = 4 * (l2 > 0 ? std::size_t(l2) : std::size_t(2) << 20) / sizeof(float);
  thread_local std::vector<float> sweep;
  sweep.resize(std::max(sweep.size(), per_thread * std::size_t(q.cpu_threads())), 1.f);
  return touch(q, sweep);
}

}  // namespace

double in_pass_time_ms(Queue& q, const std::function<void()>& call,
                       std::initializer_list<std::span<const float>> warm) {
  if (!q.device().is_cpu()) return back_to_back_ms(q, call);
  call();   // leases scratch memory, faults pages in
  q.wait();
  constexpr int samples = 5;
  double best = 1e300;
  volatile float sink = 0;
  for (int sample = 0; sample < samples; ++sample) {
    float s = evict_private_caches(q);
    for (std::span<const float> buffer : warm) s += touch(q, buffer);
    sink = sink + s;
    const auto start = Clock::now();
    call();
    q.wait();
    best = std::min(best, ms_since(start));
  }
  return best;
}

}  // namespace portkern::net_impl
