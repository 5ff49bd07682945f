// logprob's call as the kernels see it (sizes already checked by api.cpp).
#pragma once

#include <cstdint>

namespace portkern::ops::logprob_impl {

struct Args {
  std::int64_t batch = 0, steps = 1, vocab = 1, padded = 1;
  const float* logits = nullptr;
  const int* ids = nullptr;
  const int* lengths = nullptr;
  float* log_probs = nullptr;
  float* cum = nullptr;
  bool vectorized = false;   // logits 16-byte aligned and padded % 4 == 0
};

}  // namespace portkern::ops::logprob_impl
