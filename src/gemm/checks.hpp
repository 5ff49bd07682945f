// The BLAS argument checks every GEMM entry point shares (portkern::gemm and its batched and epilogue forms,
// gemm_packed): sizes, leading dimensions, strides, 64-bit extents, then the pointers of what will be read or
// written (none when m, n or batch is 0; not A and B when k or alpha is 0). Errors name `function`, the
// argument and its value.
#pragma once

#include <string>

#include "gemm/args.hpp"
#include "portkern/runtime/queue.hpp"

namespace portkern::gemm_impl {

// ">= what = value", the bound of a require() message.
inline std::string at_least(const char* what, std::int64_t value) {
  return ">= " + std::string(what) + " = " + std::to_string(value);
}

template <class T, class In>
void check_gemm_arguments(const Queue& queue, bool ta, bool tb, const GemmArgs<T, In>& p, const char* function);

}  // namespace portkern::gemm_impl
