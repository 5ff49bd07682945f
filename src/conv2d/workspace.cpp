#include "conv2d/workspace.hpp"

#include <map>
#include <mutex>

#include "portkern/runtime/buffer.hpp"

namespace portkern::conv2d_impl {

float* workspace(const Queue& queue, std::int64_t count) {
  static std::mutex mutex;
  static auto* buffers = new std::map<const Queue*, Buffer<float>>();   // never destroyed: no exit-order issues
  std::lock_guard lock(mutex);
  Buffer<float>& buffer = (*buffers)[&queue];
  if (std::int64_t(buffer.size()) < count || !(buffer.device() == queue.device())) {
    buffer = Buffer<float>();   // free first: the old and new buffers need not coexist
    buffer = Buffer<float>(queue.device(), count + count / 4);
  }
  return buffer.data();
}

}  // namespace portkern::conv2d_impl
