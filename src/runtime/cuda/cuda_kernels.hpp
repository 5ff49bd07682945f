// The runtime's own CUDA kernel launchers (the ceiling micro-benchmarks are in cuda_backend.hpp).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>


namespace portkern::detail::cuda {

void launch_fill(cudaStream_t stream, void* dst, const void* pattern, std::size_t pattern_bytes, std::size_t count);

}  // namespace portkern::detail::cuda
