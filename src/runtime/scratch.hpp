// A queue's scratch memory: temporary device memory that library calls need for their duration (conv2d's
// im2col patches and Winograd tiles). The queue owns the pool and frees it when it is destroyed.
//
// A call takes a block with lease(); the block is the call's alone until the lease ends, so concurrent calls
// on one queue each get their own block and never share one. An ended lease's block stays in the pool for the
// next call (repeated calls neither allocate nor touch fresh pages). On a GPU a returned block may still be
// in use by kernels queued on the queue's stream; the next lease of it is by a call on the same queue, whose
// kernels run after them (the stream is in order), and a block is freed only by cudaFree, which waits.
//
// Bound: the pool holds at most the blocks of the calls that ran on the queue at the same time (one per call,
// or one per core part of a CPU call: src/conv2d/call.hpp), each at most 5/4 of the largest request; a
// request that no idle block can satisfy frees the largest idle block first.
// Queue::release_scratch() frees the idle blocks; destroying the queue frees them all.
//
// Kept state: one block per pool that the queue's calls share and leave as they found it (kept()): the wgmma
// GEMM's counters, zero whenever the stream's work so far has finished.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string_view>
#include <vector>

#include "portkern/kernel/cpu/pages.hpp"
#include "portkern/runtime/device.hpp"

namespace portkern::detail {

// portkern::allocate, with the CPU pages chosen for the use (a pool's blocks are kept: PageUse::scratch).
void* allocate(const Device& device, std::size_t bytes, std::string_view purpose, kernel::cpu::PageUse use);

class ScratchPool {
 public:
  // A block held for one call: returned to the pool when the lease ends.
  class Lease {
   public:
    Lease(ScratchPool* pool, void* data, std::size_t bytes) : pool_(pool), data_(data), bytes_(bytes) {}
    ~Lease();
    Lease(Lease&& other) noexcept;
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    Lease& operator=(Lease&&) = delete;
    template <class T>
    T* as() const { return static_cast<T*>(data_); }
    std::size_t bytes() const { return bytes_; }

   private:
    ScratchPool* pool_;
    void* data_;
    std::size_t bytes_;
  };

  explicit ScratchPool(const Device& device) : device_(device) {}
  ~ScratchPool();   // every lease must have ended
  ScratchPool(const ScratchPool&) = delete;
  ScratchPool& operator=(const ScratchPool&) = delete;

  // At least `bytes` (> 0) of the device's memory, 64-byte aligned, for this call alone; `purpose` names it in
  // the error when the allocation fails.
  Lease lease(std::size_t bytes, std::string_view purpose);

  // The pool's kept block, at least `bytes` (> 0), shared by every call on the queue, which must each leave it
  // as they found it once their work has finished (the stream runs the calls one after the other).
  // `initialise` runs on each new block before any call sees it (under the pool's lock). A block outgrown by a
  // larger request stays allocated until the pool goes: work queued earlier may still use it.
  void* kept(std::size_t bytes, std::string_view purpose, const std::function<void(void*, std::size_t)>& initialise);

  std::size_t bytes_held() const;   // idle, leased and kept
  // Changes whenever a block is allocated or freed: work recorded with the pool's block addresses (a CUDA
  // graph) stays valid while it does not change.
  std::uint64_t generation() const;
  void release_idle();

 private:
  struct Block {
    void* data;
    std::size_t bytes;
  };
  void give_back(void* data, std::size_t bytes) noexcept;

  Device device_;
  mutable std::mutex mutex_;
  std::vector<Block> idle_;
  std::vector<Block> kept_;   // the last is the current kept block
  std::size_t held_ = 0;     // bytes of every block, idle, leased and kept
  std::size_t blocks_ = 0;   // idle and leased
  std::uint64_t generation_ = 0;
};

}  // namespace portkern::detail
