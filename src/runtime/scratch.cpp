// The queue's scratch pool (see scratch.hpp): blocks leased to one call at a time, kept for the next.
#include "runtime/scratch.hpp"

#include <algorithm>
#include <utility>

#include "portkern/runtime/buffer.hpp"

namespace portkern::detail {

ScratchPool::Lease::~Lease() {
  if (pool_) pool_->give_back(data_, bytes_);
}

ScratchPool::Lease::Lease(Lease&& other) noexcept
    : pool_(std::exchange(other.pool_, nullptr)), data_(other.data_), bytes_(other.bytes_) {}

ScratchPool::~ScratchPool() {
  for (const Block& block : idle_) deallocate(device_, block.data);
  for (const Block& block : kept_) deallocate(device_, block.data);
}

void* ScratchPool::kept(std::size_t bytes, std::string_view purpose,
                        const std::function<void(void*, std::size_t)>& initialise) {
  std::lock_guard lock(mutex_);
  if (!kept_.empty() && kept_.back().bytes >= bytes) return kept_.back().data;
  const std::size_t grown = std::max(bytes, kept_.empty() ? bytes : 2 * kept_.back().bytes);
  kept_.reserve(kept_.size() + 1);
  void* data = allocate(device_, grown, purpose, kernel::cpu::PageUse::scratch);
  try {
    initialise(data, grown);
  } catch (...) {
    deallocate(device_, data);
    throw;
  }
  kept_.push_back({data, grown});
  held_ += grown;
  ++generation_;
  return data;
}

ScratchPool::Lease ScratchPool::lease(std::size_t bytes, std::string_view purpose) {
  std::lock_guard lock(mutex_);
  // The smallest idle block that is large enough.
  auto best = idle_.end();
  for (auto it = idle_.begin(); it != idle_.end(); ++it)
    if (it->bytes >= bytes && (best == idle_.end() || it->bytes < best->bytes)) best = it;
  if (best != idle_.end()) {
    const Block block = *best;
    idle_.erase(best);
    return Lease(this, block.data, block.bytes);
  }
  // None fits: free the largest idle block (the new one replaces it), then allocate with room to grow.
  if (!idle_.empty()) {
    auto largest = std::max_element(idle_.begin(), idle_.end(),
                                    [](const Block& a, const Block& b) { return a.bytes < b.bytes; });
    deallocate(device_, largest->data);
    held_ -= largest->bytes;
    --blocks_;
    ++generation_;
    idle_.erase(largest);
  }
  idle_.reserve(blocks_ + 1);   // room for every block, so that give_back never allocates
  const std::size_t grown = bytes + std::min(bytes / 4, std::size_t(-1) - bytes);
  void* data = allocate(device_, grown, purpose, kernel::cpu::PageUse::scratch);
  held_ += grown;
  ++blocks_;
  ++generation_;
  return Lease(this, data, grown);
}

void ScratchPool::give_back(void* data, std::size_t bytes) noexcept {
  std::lock_guard lock(mutex_);
  idle_.push_back({data, bytes});   // within the capacity lease() reserved: does not allocate
}

std::uint64_t ScratchPool::generation() const {
  std::lock_guard lock(mutex_);
  return generation_;
}

std::size_t ScratchPool::bytes_held() const {
  std::lock_guard lock(mutex_);
  return held_;
}

void ScratchPool::release_idle() {
  std::lock_guard lock(mutex_);
  for (const Block& block : idle_) {
    deallocate(device_, block.data);
    held_ -= block.bytes;
    --blocks_;
    ++generation_;
  }
  idle_.clear();
}

}  // namespace portkern::detail
