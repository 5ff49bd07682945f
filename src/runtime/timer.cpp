#include "portkern/runtime/timer.hpp"

#include "runtime/cuda/cuda_backend.hpp"

namespace portkern {

Timer::Timer(Queue& queue) : queue_(queue) {
  if (queue_.device().is_cuda()) {
    start_event_ = detail::cuda::create_event(queue_.device().index());
    stop_event_ = detail::cuda::create_event(queue_.device().index());
  }
}

Timer::~Timer() {
  if (start_event_) detail::cuda::destroy_event(start_event_);
  if (stop_event_) detail::cuda::destroy_event(stop_event_);
}

void Timer::start() {
  if (start_event_) return detail::cuda::record_event(start_event_, queue_.native_stream());
  queue_.wait();
  start_time_ = std::chrono::steady_clock::now();
}

void Timer::stop() {
  if (stop_event_) return detail::cuda::record_event(stop_event_, queue_.native_stream());
  queue_.wait();
  stop_time_ = std::chrono::steady_clock::now();
}

double Timer::elapsed_ms() {
  if (stop_event_) return detail::cuda::elapsed_ms(start_event_, stop_event_);
  return std::chrono::duration<double, std::milli>(stop_time_ - start_time_).count();
}

}  // namespace portkern
