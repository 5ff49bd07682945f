// multinomial's call as the kernels see it (sizes already checked by api.cpp).
#pragma once

#include <cstdint>

namespace portkern::ops::multinomial_impl {

struct Args {
  std::int64_t rows = 0, categories = 1;
  const float* weights = nullptr;
  const float* uniforms = nullptr;
  int* out = nullptr;
  bool vectorized = false;   // weights 16-byte aligned and categories % 4 == 0
};

}  // namespace portkern::ops::multinomial_impl
