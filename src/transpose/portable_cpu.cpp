#include "portkern/kernel/cpu.hpp"
#include "transpose/backends.hpp"
#include "transpose/portable.hpp"

namespace portkern::transpose_backends {

void portable_cpu(Queue& q, std::int64_t rows, std::int64_t cols, const float* in, std::int64_t ld_in, float* out,
                  std::int64_t ld_out) {
  transpose_kernels::run<kernel::cpu::Backend>(q, rows, cols, in, ld_in, out, ld_out);
}

}  // namespace portkern::transpose_backends
