// What the algorithms' call sequences share: the descriptor flattened into kernel arguments, the pointer
// checks, the call's scratch block, the bias/ReLU epilogue after a GEMM, and how much scratch a chunk of work
// may take.
#pragma once

#include <cstdint>
#include <cstdlib>

#include "conv2d/args.hpp"
#include "conv2d/backends.hpp"
#include "conv2d/epilogue.hpp"
#include "portkern/checked.hpp"
#include "portkern/dnn.hpp"
#include "runtime/scratch.hpp"

namespace portkern::conv2d_impl {

inline constexpr const char* conv2d_fn = "portkern::conv2d";

inline ConvArgs make_args(const Conv2dDesc& d, const float* input, const float* filter, float* output) {
  return {d.batch,    d.in_h,     d.in_w,         d.in_c,         d.out_c, d.window_h, d.window_w,
          d.stride_h, d.stride_w, d.pad_top,      d.pad_left,     d.dilation_h, d.dilation_w, d.out_h,
          d.out_w,    input,      filter,         output,         d.bias,  d.relu};
}

inline void check_pointers(const Queue& q, const Conv2dDesc& d, const float* input, const void* filter,
                           float* output) {
  q.check_pointer(input, conv2d_fn, "input");
  q.check_pointer(filter, conv2d_fn, "filter");
  q.check_pointer(output, conv2d_fn, "output");
  if (d.bias) q.check_pointer(d.bias, conv2d_fn, "desc.bias");
}

// Bias and ReLU on output rows [row_begin, row_end) (after a GEMM wrote them).
inline void bias_relu(const Queue& q, const ConvArgs& a, std::int64_t row_begin, std::int64_t row_end) {
  if (!a.bias && !a.relu) return;
  launch(q, BiasRelu{row_end - row_begin, a.out_c, a.output + row_begin * a.out_c, a.bias, a.relu});
}

// The call's own scratch block of `floats` floats (see runtime/scratch.hpp), held until it returns.
inline portkern::detail::ScratchPool::Lease lease_floats(Queue& q, std::int64_t floats, const char* purpose) {
  return q.scratch_pool().lease(checked_bytes(floats, sizeof(float), conv2d_fn, purpose), purpose);
}

// Bytes of scratch one chunk of a call may use: sized for the CPU's caches, 8 MiB unless the environment
// variable `env` (in MiB, for tuning experiments) says otherwise; elsewhere up to 512 MiB before a call works
// in chunks.
inline std::int64_t cache_chunk_bytes(const char* env) {
  const char* value = std::getenv(env);
  return value ? std::int64_t(std::atof(value) * (1 << 20)) : std::int64_t(8) << 20;
}
inline constexpr std::int64_t large_chunk_bytes = std::int64_t(512) << 20;

// Why an algorithm that needs dilation 1 cannot take `d`; empty when it can.
inline std::string undilated(const Conv2dDesc& d) {
  return d.dilation_h != 1 || d.dilation_w != 1 ? "dilation > 1 takes the direct path only" : "";
}

}  // namespace portkern::conv2d_impl
