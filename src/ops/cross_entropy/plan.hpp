// cross_entropy_backward's call as the kernels see it (sizes already checked by api.cpp), and the element
// type's compute type (half -> float).
#pragma once

#include <cstdint>
#include <type_traits>

#include "portkern/kernel/half.hpp"
#include "portkern/kernel/math.hpp"

namespace portkern::ops::cross_entropy_impl {

template <class T>
struct Args {
  std::int64_t batch = 0, classes = 0, positions = 0;
  const T* log_probs = nullptr;
  const std::int64_t* target = nullptr;
  const T* weight = nullptr;
  const T* grad_out = nullptr;
  const T* grad_out_neg = nullptr;
  const std::int64_t* mask = nullptr;
  T* grad = nullptr;
  int width = 1;   // vector width along positions (1, 2, 4, 8; width * sizeof(T) <= 16)
};

template <class T>
using Compute = std::conditional_t<std::is_same_v<T, half>, float, T>;

template <class T>
PORTKERN_INLINE Compute<T> widen(T x) {
  if constexpr (std::is_same_v<T, half>) return kernel::to_float(x);
  else return x;
}
template <class T>
PORTKERN_INLINE T narrow(Compute<T> x) {
  if constexpr (std::is_same_v<T, half>) return kernel::to_half(x);
  else return x;
}

// A position's gradient scale, gamma = -(grad_out + mask * grad_out_neg) * weight, read at flat index i = b *
// positions + h, and its target class t as the kernels use it (-1 when out of range).
template <class T>
PORTKERN_INLINE Compute<T> position_gamma(const Args<T>& a, std::int64_t i) {
  return -(widen(a.grad_out[i]) + Compute<T>(a.mask[i]) * widen(a.grad_out_neg[i])) * widen(a.weight[i]);
}
PORTKERN_INLINE int valid_target(std::int64_t t, std::int64_t classes) { return t >= 0 && t < classes ? int(t) : -1; }

// The gradient at class k of a position: gamma * (onehot(target == k) - exp(log_prob)).
template <class C>
PORTKERN_INLINE C class_gradient(C gamma, int target, int k, C log_prob) {
  return gamma * ((target == k ? C(1) : C(0)) - kernel::exp(log_prob));
}

// One element loaded or stored where `in` holds (a masked access in the CPU's vectorised item loop): a half
// through its bits, so that GCC sees a 16-bit scalar access, not a copy of a struct (which it neither
// if-converts nor vectorises).
template <class T>
PORTKERN_INLINE T load_if(const T* p, bool in) {
  if constexpr (std::is_same_v<T, half>) return half{in ? p->bits : std::uint16_t(0)};
  else return in ? *p : T(0);
}
template <class T>
PORTKERN_INLINE void store_if(T* p, T v, bool in) {
  if constexpr (std::is_same_v<T, half>) {
    if (in) p->bits = v.bits;
  } else {
    if (in) *p = v;
  }
}

// The widest vector (<= 16 bytes) that divides positions and to which log_probs and grad are aligned.
template <class T>
int choose_width(std::int64_t positions, const void* log_probs, const void* grad) {
  for (int w = 16 / int(sizeof(T)); w > 1; w /= 2) {
    const std::uintptr_t bytes = std::uintptr_t(w) * sizeof(T);
    if (positions % w == 0 && reinterpret_cast<std::uintptr_t>(log_probs) % bytes == 0 &&
        reinterpret_cast<std::uintptr_t>(grad) % bytes == 0)
      return w;
  }
  return 1;
}

}  // namespace portkern::ops::cross_entropy_impl
