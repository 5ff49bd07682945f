// Host memory for CPU buffers, scratch and packed panels. Blocks of 4 MiB and more are aligned to 2 MiB and
// marked for transparent huge pages (madvise(MADV_HUGEPAGE): the kernel's default here is "madvise"), so a
// large operand or panel sits in physically contiguous 2 MiB pages: fewer TLB misses, and the same L2 set
// mapping in every process instead of one that depends on where the kernel put each 4 KiB page.
#include <sys/mman.h>

#include <cstdlib>

#include "runtime/cpu/cpu_backend.hpp"

namespace portkern::detail::cpu {

void* allocate_pages(std::size_t bytes) {
  constexpr std::size_t huge = std::size_t(2) << 20;
  const std::size_t alignment = bytes >= 2 * huge ? huge : 64;
  const std::size_t rounded = (bytes + alignment - 1) / alignment * alignment;
  void* pointer = std::aligned_alloc(alignment, rounded);
#ifdef MADV_HUGEPAGE
  if (pointer && alignment == huge) madvise(pointer, rounded, MADV_HUGEPAGE);   // a hint: failure changes nothing
#endif
  return pointer;
}

}  // namespace portkern::detail::cpu
