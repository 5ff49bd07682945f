// Tiled matrix transpose through group-local memory, written once in the kernel model.
//
// out (cols x rows, row-major, leading dimension ld_out) = transpose of in (rows x cols, ld_in).
// Each group moves one Tile x Tile block: its Tile x Rows items read the block's rows (consecutive items,
// consecutive addresses), store them into a local tile padded by one column (no bank conflicts on CUDA),
// and after a barrier write the block's columns as rows of `out`, again with consecutive addresses. Each
// item handles Tile / Rows elements per phase. It wins over a naive transpose because both the reads and
// the writes are contiguous; it is the benchmark that shows the model costs nothing (DESIGN.md).
#pragma once

#include <cstdint>

#include "portkern/kernel/model.hpp"

namespace portkern::transpose_kernels {

template <class T, int Tile = 32, int Rows = 8>
struct TransposeTiled {
  static_assert(Tile % Rows == 0, "each item handles Tile / Rows rows");
  using group_shape = kernel::Shape<Tile, Rows>;

  std::int64_t rows, cols;
  const T* in;
  std::int64_t ld_in;
  T* out;
  std::int64_t ld_out;

  // The groups that cover the matrix: x over column blocks, y over row blocks.
  static kernel::Range groups(std::int64_t rows, std::int64_t cols) {
    return {(cols + Tile - 1) / Tile, (rows + Tile - 1) / Tile, 1};
  }

  template <class Group>
  PORTKERN_KERNEL void operator()(Group& g) const {
    auto& tile = g.template local<T[Tile][Tile + 1], 0>();
    const std::int64_t row0 = g.y() * Tile, col0 = g.x() * Tile;
    g.for_each_item([&](kernel::Item item) {
      const std::int64_t col = col0 + item.x;
PORTKERN_UNROLL
      for (int j = 0; j < Tile; j += Rows) {
        const std::int64_t row = row0 + item.y + j;
        if (row < rows && col < cols) tile[item.y + j][item.x] = in[row * ld_in + col];
      }
    });
    g.barrier();
    g.for_each_item([&](kernel::Item item) {
      const std::int64_t out_col = row0 + item.x;   // a row of `in` is a column of `out`
PORTKERN_UNROLL
      for (int j = 0; j < Tile; j += Rows) {
        const std::int64_t out_row = col0 + item.y + j;
        if (out_row < cols && out_col < rows) out[out_row * ld_out + out_col] = tile[item.x][item.y + j];
      }
    });
  }
};

}  // namespace portkern::transpose_kernels
