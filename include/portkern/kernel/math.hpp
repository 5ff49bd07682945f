// Elementary functions for kernels in the model, one spelling for both back ends: the CUDA device
// functions (expf, tanhf, ...) on the GPU, <cmath> on the CPU. `fast_exp` is the one deliberate
// approximation (CUDA's __expf, 2 ulp plus a relative error that grows with |x|; std::exp on the CPU): use it
// only where the operator's tolerance says so.
//
// On the CPU a phase's item loop is vectorised by the compiler (cpu.hpp), so every function here must be
// callable from a vectorised loop:
// - exp, log, log1p, tanh, erf and pow have vector variants in glibc's libmvec (x86-64, SSE4 to AVX-512,
//   glibc >= 2.35), reached through GCC's vector function ABI: the declarations below tell GCC they exist
//   (glibc declares them only under -ffast-math), so a loop that calls expf 16 times per AVX-512 vector calls
//   _ZGVeN16v_expf once. libmvec's float functions are within 4 ulp (measured here: exp 2.6, tanh 1.4, log
//   0.6, log1p 1.0, erf 4.0), CUDA's within 2-4: the operators' tolerances allow both. Elsewhere (aarch64 with
//   GCC 12, which makes no vector calls) the same code calls the scalar libm.
// - fmax and sigmoid are selects, not branches or libm calls, which GCC vectorises (it never vectorises a
//   call of fmaxf, nor a call under a branch).
// - The CPU back end is compiled with -fno-math-errno (cmake/cpu_simd.cmake): a libm call that may set errno
//   is a side effect GCC will not if-convert, so a loop with a select anywhere near an exp stays scalar.
#pragma once

#include <cmath>

#include "portkern/kernel/model.hpp"

#if !defined(__CUDACC__) && !defined(__clang__) && defined(__x86_64__) && defined(__GLIBC__) && \
    (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 35))
#define PORTKERN_VECTOR_MATH 1
// PORTKERN_VECTOR_DECL(name): name (double) and name##f (float) have libmvec variants for every x86-64 vector width.
#define PORTKERN_VECTOR_DECL(name)                                                  \
  extern "C" double name(double) noexcept __attribute__((__simd__("notinbranch"))); \
  extern "C" float name##f(float) noexcept __attribute__((__simd__("notinbranch")));
PORTKERN_VECTOR_DECL(exp)
PORTKERN_VECTOR_DECL(log)
PORTKERN_VECTOR_DECL(log1p)
PORTKERN_VECTOR_DECL(tanh)
PORTKERN_VECTOR_DECL(erf)
extern "C" double pow(double, double) noexcept __attribute__((__simd__("notinbranch")));
extern "C" float powf(float, float) noexcept __attribute__((__simd__("notinbranch")));
#undef PORTKERN_VECTOR_DECL
#endif

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
PORTKERN_INLINE float abs(float x) { return ::fabsf(x); }
PORTKERN_INLINE double abs(double x) { return ::fabs(x); }
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
PORTKERN_INLINE float abs(float x) { return std::fabs(x); }
PORTKERN_INLINE double abs(double x) { return std::fabs(x); }
// fmax's result as a select: a unless a is below b or NaN (then b, NaN only if both are).
PORTKERN_INLINE float fmax(float a, float b) { return a > b || b != b ? a : b; }
PORTKERN_INLINE double fmax(double a, double b) { return a > b || b != b ? a : b; }
#endif

// a / b for 0 <= a < 2^32 and 1 <= b < 2^32 (a 64-bit type for the caller's convenience): an integer
// division on CUDA; on the CPU through double, exact for such operands (the quotient's rounding error is far
// below the distance 1/b to the next integer), because x86 has no SIMD integer division and one would keep
// the item loop from vectorising.
template <class I>
PORTKERN_INLINE I quotient32(I a, I b) {
#if defined(__CUDA_ARCH__)
  return I(unsigned(a) / unsigned(b));
#else
  return I(double(a) / double(b));
#endif
}

// The logistic function 1 / (1 + e^-x), stable at both ends (no overflow of e^-x for large negative x):
// with e = e^-|x|, 1 / (1 + e) for x >= 0 and e / (1 + e) below (NaN stays NaN). One exp, one division and
// a select, no branch (which keeps the CPU's item loop vectorised).
template <class T>
PORTKERN_INLINE T sigmoid(T x) {
  const T e = exp(-abs(x));
  return (x >= T(0) ? T(1) : e) / (T(1) + e);
}

}  // namespace portkern::kernel
