// Every CUDA runtime call and kernel launch is checked: a failure becomes a portkern::Error naming the
// portkern function, the CUDA call and CUDA's own error string.
#pragma once

#include <cuda_runtime.h>

#include <string>

#include "portkern/error.hpp"

namespace portkern::detail {

inline void cuda_check(cudaError_t status, const char* function, const char* call) {
  if (status == cudaSuccess) return;
  fail(function, std::string("CUDA error '") + cudaGetErrorString(status) + "' (" + call + ")");
}

}  // namespace portkern::detail

// PORTKERN_CUDA_CHECK(function name, cudaCall(...)): the call's text goes into the message.
#define PORTKERN_CUDA_CHECK(function, ...) ::portkern::detail::cuda_check((__VA_ARGS__), function, #__VA_ARGS__)
