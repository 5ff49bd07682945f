// The channel shuffle as the kernels see it: N, C, HW, groups, K = C / groups, the layout, and whether the
// 16-byte vector path applies (NCHW only).
#pragma once

#include <cstdint>

#include "portkern/kernel/model.hpp"

namespace portkern::ops::channel_shuffle_impl {

struct Plan {
  std::int64_t n = 0, c = 0, hw = 0, groups = 1, k = 0;
  bool nhwc = false;
  bool vector = false;   // NCHW: hw % 4 == 0 and both pointers 16-byte aligned
};

// The plan of a call (arguments checked by the caller); the vector path needs both pointers 16-byte aligned.
inline Plan make_plan(bool nhwc, std::int64_t n, std::int64_t c, std::int64_t hw, std::int64_t groups, const float* in,
                      const float* out) {
  Plan plan;
  plan.n = n, plan.c = c, plan.hw = hw, plan.groups = groups, plan.k = c / groups, plan.nhwc = nhwc;
  plan.vector = !nhwc && hw % 4 == 0 && reinterpret_cast<std::uintptr_t>(in) % 16 == 0 &&
                reinterpret_cast<std::uintptr_t>(out) % 16 == 0;
  return plan;
}

// The input channel that output channel `co` reads.
PORTKERN_INLINE std::int64_t source_channel(const Plan& plan, std::int64_t co) {
  return (co % plan.groups) * plan.k + co / plan.groups;
}

}  // namespace portkern::ops::channel_shuffle_impl
