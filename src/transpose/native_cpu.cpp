// The hand-written CPU transpose the portable kernel is measured against: a plain OpenMP loop nest over
// 32 x 32 blocks (the same blocking, no kernel model).
#include "transpose/backends.hpp"

#include <algorithm>

namespace portkern::transpose_backends {

void native_cpu(Queue& q, std::int64_t rows, std::int64_t cols, const float* in, std::int64_t ld_in, float* out,
                std::int64_t ld_out) {
  constexpr std::int64_t block = 32;
#pragma omp parallel for collapse(2) schedule(static) num_threads(q.cpu_threads())
  for (std::int64_t r0 = 0; r0 < rows; r0 += block)
    for (std::int64_t c0 = 0; c0 < cols; c0 += block) {
      const std::int64_t r1 = std::min(r0 + block, rows), c1 = std::min(c0 + block, cols);
      for (std::int64_t c = c0; c < c1; ++c)
        for (std::int64_t r = r0; r < r1; ++r) out[c * ld_out + r] = in[r * ld_in + c];
    }
}

}  // namespace portkern::transpose_backends
