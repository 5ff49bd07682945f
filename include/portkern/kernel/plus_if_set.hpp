// An optional operand of an epilogue (a bias, a residual: a pointer that may be null), added where it is set,
// written so that the CPU back end's vectorised item loops keep plain vector loads.
//
// On CUDA it is a uniform branch. On the CPU the load reads memory that exists (`from`, else `fallback`: memory
// the caller knows is at least as long, typically the output; the base is chosen once, the same for every item)
// and a select keeps or drops the addend. Written as `if (from) value += from[i]`, GCC 12 made the load in a
// vectorised item loop a masked load, and a masked load whose lanes are all off but whose address is near 0 (a
// null pointer plus an offset) ran several times slower than a plain one on Zen 5: Winograd's output transform
// with no epilogue ran ResNet-50's conv2_3 at 97 GFLOP/s on one core, with a bias and a residual at 535.
#pragma once

#include <cstdint>

#include "portkern/kernel/model.hpp"

namespace portkern::kernel {

// `value` plus from[i] where `from` is set, else value; fallback[i] must be readable.
template <class T>
PORTKERN_INLINE T plus_if_set(T value, const T* from, std::int64_t i, const T* fallback) {
#if defined(__CUDA_ARCH__)
  (void)fallback;
  return from ? value + from[i] : value;
#else
  const T* const base = from ? from : fallback;
  const T addend = base[i];
  return from ? value + addend : value;
#endif
}

}  // namespace portkern::kernel
