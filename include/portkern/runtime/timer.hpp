// Device time of the work submitted to a queue between start() and stop(): CUDA events on a GPU, the steady
// clock after the queue has drained on the CPU.
#pragma once

#include <chrono>

#include "portkern/runtime/queue.hpp"

namespace portkern {

class Timer {
 public:
  explicit Timer(Queue& queue);
  ~Timer();
  Timer(const Timer&) = delete;
  Timer& operator=(const Timer&) = delete;

  void start();
  void stop();
  double elapsed_ms();   // waits for the stop event

 private:
  Queue& queue_;
  void* start_event_ = nullptr;
  void* stop_event_ = nullptr;
  std::chrono::steady_clock::time_point start_time_, stop_time_;
};

}  // namespace portkern
