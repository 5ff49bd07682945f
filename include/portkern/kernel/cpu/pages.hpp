// Host memory for CPU buffers and for the CPU lowering's per-thread scratch (packed panels), on transparent
// huge pages where a block is large or reused. A 2 MiB page needs one TLB entry where 4 KiB pages need 512,
// and it is physically contiguous: the data in it maps onto the caches' sets the same way in every process.
// (The layers that moved up to 2x between identical runs were not this: they follow where the host places
// the two cores, docs/benchmarking.md.) Linux's default here is "madvise": madvise(MADV_HUGEPAGE) asks for
// them, and a refusal changes nothing. std::free releases both.
#pragma once

#include <cstddef>

namespace portkern::kernel::cpu {

enum class PageUse {
  buffer,    // an operand or a call's scratch: huge pages from 4 MiB, else 64-byte aligned
  scratch,   // kept and reused by a thread (packed panels): huge pages from 64 KiB, rounded up to whole pages
};

// `bytes` of host memory, or nullptr when there is none.
void* allocate_pages(std::size_t bytes, PageUse use = PageUse::buffer);

}  // namespace portkern::kernel::cpu
