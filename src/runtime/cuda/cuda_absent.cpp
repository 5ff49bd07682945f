// The CUDA back end when it is not built: no GPUs, and anything that would need one is an Error.
#include "portkern/error.hpp"
#include "runtime/cuda/cuda_backend.hpp"

namespace portkern::detail::cuda {

namespace {
[[noreturn]] void absent(const char* function) { fail(function, "this portkern was built without the CUDA back end"); }
}  // namespace

int device_count() { return 0; }
DeviceProperties properties(int) { absent("portkern::Device::properties"); }
Ceilings measure_ceilings(int) { absent("portkern::measure_ceilings"); }
void* allocate(int, std::size_t) { absent("portkern::allocate"); }
void deallocate(int, void*) noexcept {}
void* create_stream(int) { absent("portkern::Queue"); }
void destroy_stream(int, void*) noexcept {}
void copy(void*, void*, const void*, std::size_t) { absent("portkern::Queue::copy"); }
void fill(void*, void*, const void*, std::size_t, std::size_t) { absent("portkern::Queue::fill"); }
void wait(void*) { absent("portkern::Queue::wait"); }
Memory memory_of(const void*, int* device) {
  *device = -1;
  return Memory::host;
}
void* create_event(int) { absent("portkern::Timer"); }
void destroy_event(void*) noexcept {}
void record_event(void*, void*) { absent("portkern::Timer"); }
double elapsed_ms(void*, void*) { absent("portkern::Timer"); }
void* capture_graph(void*, const std::function<void()>&) { absent("portkern::cuda::capture_graph"); }
void launch_graph(void*, void*) { absent("portkern::cuda::launch_graph"); }
void destroy_graph(void*) noexcept {}

}  // namespace portkern::detail::cuda
