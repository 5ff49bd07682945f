#include <cstdint>
#include <string>

#include "ops/dense_embedding/backends.hpp"
#include "ops/dense_embedding/kernel.hpp"
#include "portkern/checked.hpp"
#include "portkern/error.hpp"
#include "portkern/kernel/cpu.hpp"
#include "portkern/ops/dense_embedding.hpp"

namespace portkern::ops {

namespace dense_embedding_impl {
void portable_cpu(Queue& queue, const Plan& plan, const std::int64_t* offsets, const float* input, const float* dense,
                  float* out) {
  run<kernel::cpu::Backend>(queue, plan, offsets, input, dense, out);
}
}  // namespace dense_embedding_impl

void dense_embedding(Queue& queue, std::span<const std::int64_t> offsets, std::int64_t dim, std::int64_t total,
                     const std::int64_t* device_offsets, const float* input, const float* dense, float* out) {
  const char* function = "portkern::ops::dense_embedding";
  require(!offsets.empty(), function, "offsets.size()", offsets.size(), ">= 1 (B + 1 offsets)");
  require(dim >= 1, function, "dim", dim, ">= 1");
  require(total >= 0, function, "total", total, ">= 0");
  const std::int64_t batches = std::int64_t(offsets.size()) - 1;
  require(offsets[0] >= 0, function, "offsets[0]", offsets[0], ">= 0");
  for (std::int64_t b = 0; b <= batches; ++b) {
    const std::string name = "offsets[" + std::to_string(b) + "]";
    require(offsets[b] % dim == 0, function, name, offsets[b], "a multiple of dim = " + std::to_string(dim));
    if (b > 0)
      require(offsets[b] >= offsets[b - 1], function, name, offsets[b],
              ">= offsets[" + std::to_string(b - 1) + "] = " + std::to_string(offsets[b - 1]));
  }
  require(offsets[batches] <= total, function, "offsets[" + std::to_string(batches) + "]", offsets[batches],
          "<= total = " + std::to_string(total));
  checked_bytes(total, sizeof(float), function, "total");
  if (offsets[batches] == offsets[0]) return;   // no rows (also B = 0)
  queue.check_pointer(device_offsets, function, "device_offsets");
  queue.check_pointer(input, function, "input");
  queue.check_pointer(dense, function, "dense");
  queue.check_pointer(out, function, "out");
  const auto aligned = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; };
  const auto plan = dense_embedding_impl::make_plan(batches, dim, offsets[0], offsets[batches],
                                                    aligned(input) && aligned(dense) && aligned(out));
  if (queue.device().is_cpu()) return dense_embedding_impl::portable_cpu(queue, plan, device_offsets, input, dense, out);
#if PORTKERN_HAVE_CUDA
  dense_embedding_impl::portable_cuda(queue, plan, device_offsets, input, dense, out);
#endif
}

}  // namespace portkern::ops
