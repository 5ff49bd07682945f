// Elementary functions for kernels in the model, one spelling for both back ends: the CUDA device
// functions (expf, tanhf, ...) on the GPU, <cmath> on the CPU. `fast_exp` is the one deliberate
// approximation (CUDA's __expf, 2 ulp plus a relative error that grows with |x|; std::exp on the CPU): use it
// only where the operator's tolerance says so.
#pragma once

#include <cmath>

#include "portkern/kernel/model.hpp"

namespace portkern::kernel {

#if defined(__CUDA_ARCH__)
PORTKERN_INLINE float exp(float x) { return ::expf(x); }
PORTKERN_INLINE double exp(double x) { return ::exp(x); }
PORTKERN_INLINE float fast_exp(float x) { return ::__expf(x); }
PORTKERN_INLINE float log(float x) { return ::logf(x); }
PORTKERN_INLINE double log(double x) { return ::log(x); }
PORTKERN_INLINE float log1p(float x) { return ::log1pf(x); }
PORTKERN_INLINE double log1p(double x) { return ::log1p(x); }
PORTKERN_INLINE float tanh(float x) { return ::tanhf(x); }
PORTKERN_INLINE double tanh(double x) { return ::tanh(x); }
PORTKERN_INLINE float sqrt(float x) { return ::sqrtf(x); }
PORTKERN_INLINE double sqrt(double x) { return ::sqrt(x); }
PORTKERN_INLINE float pow(float x, float y) { return ::powf(x, y); }
PORTKERN_INLINE double pow(double x, double y) { return ::pow(x, y); }
PORTKERN_INLINE float fmax(float a, float b) { return ::fmaxf(a, b); }
PORTKERN_INLINE double fmax(double a, double b) { return ::fmax(a, b); }
#else
PORTKERN_INLINE float exp(float x) { return std::exp(x); }
PORTKERN_INLINE double exp(double x) { return std::exp(x); }
PORTKERN_INLINE float fast_exp(float x) { return std::exp(x); }
PORTKERN_INLINE float log(float x) { return std::log(x); }
PORTKERN_INLINE double log(double x) { return std::log(x); }
PORTKERN_INLINE float log1p(float x) { return std::log1p(x); }
PORTKERN_INLINE double log1p(double x) { return std::log1p(x); }
PORTKERN_INLINE float tanh(float x) { return std::tanh(x); }
PORTKERN_INLINE double tanh(double x) { return std::tanh(x); }
PORTKERN_INLINE float sqrt(float x) { return std::sqrt(x); }
PORTKERN_INLINE double sqrt(double x) { return std::sqrt(x); }
PORTKERN_INLINE float pow(float x, float y) { return std::pow(x, y); }
PORTKERN_INLINE double pow(double x, double y) { return std::pow(x, y); }
PORTKERN_INLINE float fmax(float a, float b) { return std::fmax(a, b); }
PORTKERN_INLINE double fmax(double a, double b) { return std::fmax(a, b); }
#endif

// The logistic function 1 / (1 + e^-x), stable at both ends (no overflow of e^-x for large negative x).
template <class T>
PORTKERN_INLINE T sigmoid(T x) {
  if (x >= T(0)) return T(1) / (T(1) + exp(-x));
  const T e = exp(x);
  return e / (T(1) + e);
}

}  // namespace portkern::kernel
