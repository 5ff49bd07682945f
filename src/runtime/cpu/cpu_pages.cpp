// Host memory on transparent huge pages: see portkern/kernel/cpu/pages.hpp.
#include "portkern/kernel/cpu/pages.hpp"

#include <sys/mman.h>

#include <cstdlib>

namespace portkern::kernel::cpu {

void* allocate_pages(std::size_t bytes, PageUse use) {
  constexpr std::size_t huge = std::size_t(2) << 20;
  const std::size_t from = use == PageUse::scratch ? std::size_t(64) << 10 : 2 * huge;
  const std::size_t alignment = bytes >= from ? huge : 64;
  const std::size_t rounded = (bytes + alignment - 1) / alignment * alignment;
  void* pointer = std::aligned_alloc(alignment, rounded);
#ifdef MADV_HUGEPAGE
  if (pointer && alignment == huge) madvise(pointer, rounded, MADV_HUGEPAGE);   // a hint: failure changes nothing
#endif
  return pointer;
}

}  // namespace portkern::kernel::cpu
