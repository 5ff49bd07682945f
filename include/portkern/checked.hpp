// Overflow-checked arithmetic on the 64-bit sizes that users pass (tensor dimensions, leading dimensions,
// strides, counts). Every product or sum of user sizes that the library forms goes through these, so that a
// size too large for 64 bits is a portkern::Error naming the quantity, e.g.
//   portkern::conv2d: dilation_h * (window_h - 1) = 1099511627776 * 1099511627775 does not fit in 64 bits
// instead of a wrapped value that passes later checks and reaches a kernel.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <span>
#include <string>
#include <string_view>

#include "portkern/error.hpp"

namespace portkern {

namespace detail {
[[noreturn]] inline void overflow(std::string_view function, std::string_view what, std::int64_t a, const char* op,
                                  std::int64_t b) {
  fail(function, std::string(what) + " = " + std::to_string(a) + op + std::to_string(b) + " does not fit in 64 bits");
}
}  // namespace detail

// a * b, or Error "<function>: <what> = a * b does not fit in 64 bits".
inline std::int64_t checked_mul(std::int64_t a, std::int64_t b, std::string_view function, std::string_view what) {
  std::int64_t result = 0;
  if (__builtin_mul_overflow(a, b, &result)) detail::overflow(function, what, a, " * ", b);
  return result;
}

// a + b, or Error "<function>: <what> = a + b does not fit in 64 bits".
inline std::int64_t checked_add(std::int64_t a, std::int64_t b, std::string_view function, std::string_view what) {
  std::int64_t result = 0;
  if (__builtin_add_overflow(a, b, &result)) detail::overflow(function, what, a, " + ", b);
  return result;
}

// The product of non-negative factors (a tensor's element count), or Error naming `what`. A factor of 0 makes
// it 0 whatever the others (an empty tensor is never an error).
inline std::int64_t checked_product(std::span<const std::int64_t> factors, std::string_view function,
                                    std::string_view what) {
  for (std::int64_t f : factors)
    if (f == 0) return 0;
  std::int64_t result = 1;
  for (std::int64_t f : factors) result = checked_mul(result, f, function, what);
  return result;
}
inline std::int64_t checked_product(std::initializer_list<std::int64_t> factors, std::string_view function,
                                    std::string_view what) {
  return checked_product(std::span<const std::int64_t>(factors.begin(), factors.size()), function, what);
}

// Bytes of `count` elements of `element_bytes` each, or Error: the result fits in both int64 and size_t, so
// any byte offset into the memory fits in a pointer difference.
inline std::size_t checked_bytes(std::int64_t count, std::size_t element_bytes, std::string_view function,
                                 std::string_view what) {
  require(count >= 0, function, what, count, ">= 0");
  const std::int64_t bytes = checked_mul(count, std::int64_t(element_bytes), function, std::string("bytes of ") + std::string(what));
  if (std::uint64_t(bytes) > std::uint64_t(std::numeric_limits<std::size_t>::max()))
    fail(function, "bytes of " + std::string(what) + " = " + std::to_string(bytes) + " exceed the address space");
  return std::size_t(bytes);
}

// The element count of a dense tensor with dimensions `dims` (each >= 0) whose bytes, as elements of T, fit
// in 64 bits; `what` names it ("x (batch * seq * hidden)").
template <class T>
std::int64_t checked_elements(std::initializer_list<std::int64_t> dims, std::string_view function, std::string_view what) {
  const std::int64_t count = checked_product(dims, function, what);
  checked_bytes(count, sizeof(T), function, what);
  return count;
}

// Elements a column-major matrix of `rows` x `cols` with leading dimension `ld` spans (0 when empty), with
// `batch` such matrices `stride` apart: ld * (cols - 1) + rows + stride * (batch - 1), or Error.
inline std::int64_t checked_matrix_extent(std::int64_t rows, std::int64_t cols, std::int64_t ld, std::int64_t stride,
                                          std::int64_t batch, std::string_view function, std::string_view what) {
  if (rows <= 0 || cols <= 0 || batch <= 0) return 0;
  const std::string name(what);
  std::int64_t extent = checked_add(checked_mul(ld, cols - 1, function, "ld * (cols - 1) of " + name), rows, function,
                                    "the elements of " + name);
  if (batch > 1)
    extent = checked_add(checked_mul(stride, batch - 1, function, "stride * (batch - 1) of " + name), extent, function,
                         "the elements of " + name + " over the batch");
  return extent;
}

}  // namespace portkern
