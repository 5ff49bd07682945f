// mask's reference: the six conditions as written in the spec, one element at a time.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "portkern/ops/mask.hpp"

namespace portkern::ops::mask_impl {

inline std::vector<std::int32_t> reference(MaskKind kind, std::int64_t batch, std::int64_t rows, std::int64_t cols,
                                           std::span<const std::int32_t> in, std::int32_t fill,
                                           std::span<const std::int32_t> per_row, std::int64_t radius) {
  std::vector<std::int32_t> out(in.begin(), in.end());
  const std::int64_t batches = batch > 0 ? batch : 1;
  for (std::int64_t i = 0; i < batches; ++i)
    for (std::int64_t j = 0; j < rows; ++j)
      for (std::int64_t k = 0; k < cols; ++k) {
        bool masked = false;
        switch (kind) {
          case MaskKind::sequence: masked = k >= per_row[std::size_t(j)]; break;
          case MaskKind::window:
            masked = k < per_row[std::size_t(j)] - radius || k > per_row[std::size_t(j)] + radius;
            break;
          case MaskKind::upper: masked = k > j; break;
          case MaskKind::lower: masked = k < j; break;
          case MaskKind::upper_diag: masked = k >= j; break;
          case MaskKind::lower_diag: masked = k <= j; break;
        }
        if (masked) out[std::size_t((i * rows + j) * cols + k)] = fill;
      }
  return out;
}

}  // namespace portkern::ops::mask_impl
