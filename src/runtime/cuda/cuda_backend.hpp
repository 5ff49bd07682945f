// The runtime's CUDA back end, as plain C++ (no CUDA types), so that device.cpp, queue.cpp and timer.cpp
// compile without the toolkit. Implemented by cuda_device.cpp when the CUDA back end is built, and by
// cuda_absent.cpp (no GPU: count 0, everything else an Error) when it is not.
#pragma once

#include <cstddef>
#include <functional>

#include "portkern/runtime/device.hpp"

namespace portkern::detail::cuda {

int device_count();
DeviceProperties properties(int device);
Ceilings measure_ceilings(int device);

void* allocate(int device, std::size_t bytes);
void deallocate(int device, void* pointer) noexcept;

void* create_stream(int device);
void destroy_stream(int device, void* stream) noexcept;
void copy(void* stream, void* dst, const void* src, std::size_t bytes);
void fill(void* stream, void* dst, const void* pattern, std::size_t pattern_bytes, std::size_t count);
void wait(void* stream);

// Which memory a pointer is: host (pageable or pinned), device memory of a GPU, or managed.
enum class Memory { host, device, managed };
Memory memory_of(const void* pointer, int* device);

void* create_event(int device);
void destroy_event(void* event) noexcept;
void record_event(void* event, void* stream);
double elapsed_ms(void* start, void* stop);   // waits for `stop`

// The work `work` submits to `stream`, captured as a CUDA graph (relaxed mode: its launches, copies and fills
// are recorded, not run) and instantiated; nullptr where the capture failed (a call the capture does not
// allow, or an exception from `work`, which is rethrown after the stream has left capture mode).
void* capture_graph(void* stream, const std::function<void()>& work);
void launch_graph(void* graph, void* stream);
void destroy_graph(void* graph) noexcept;

}  // namespace portkern::detail::cuda
