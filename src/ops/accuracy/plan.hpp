// accuracy's call as the kernels see it (sizes already checked by api.cpp).
#pragma once

#include <cstdint>

namespace portkern::ops::accuracy_impl {

struct Args {
  std::int64_t rows = 0, classes = 1, top_k = 1;
  const float* scores = nullptr;
  const int* labels = nullptr;
  int* count = nullptr;
  bool vectorized = false;   // scores 16-byte aligned and classes % 4 == 0
};

}  // namespace portkern::ops::accuracy_impl
