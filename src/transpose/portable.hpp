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
#include "portkern/runtime/queue.hpp"

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
    // Interior blocks (all but the last row and column of blocks) need no bounds checks: a uniform branch,
    // so that the CPU lowering gets loops without conditions, which it vectorises.
    if (row0 + Tile <= rows && col0 + Tile <= cols)
      move_block<false>(g, tile, row0, col0);
    else
      move_block<true>(g, tile, row0, col0);
  }

  template <bool checked, class Group, class TileArray>
  PORTKERN_INLINE void move_block(Group& g, TileArray& tile, std::int64_t row0, std::int64_t col0) const {
    const T* block_in = in + row0 * ld_in + col0;
    g.for_each_item([&](kernel::Item item) {
      PORTKERN_UNROLL
      for (int j = 0; j < Tile; j += Rows) {
        const int r = item.y + j;
        if (!checked || (row0 + r < rows && col0 + item.x < cols)) tile[r][item.x] = block_in[r * ld_in + item.x];
      }
    });
    g.barrier();
    T* block_out = out + col0 * ld_out + row0;   // a row of `in` is a column of `out`
    g.for_each_item([&](kernel::Item item) {
      PORTKERN_UNROLL
      for (int j = 0; j < Tile; j += Rows) {
        const int c = item.y + j;
        if (!checked || (col0 + c < cols && row0 + item.x < rows)) block_out[c * ld_out + item.x] = tile[item.x][c];
      }
    });
  }
};

// The launch, written once over the back end. On the CPU each item moves one element per phase (Rows = Tile):
// with four per item, the unrolled column reads of phase 2 (tile[x][y], tile[x][y + 8], ...) are a grouped
// strided access that GCC does not vectorise; one per item is a plain strided load.
template <class Backend>
void run(Queue& q, std::int64_t rows, std::int64_t cols, const float* in, std::int64_t ld_in, float* out,
         std::int64_t ld_out) {
  using Kernel = TransposeTiled<float, 32, Backend::items_are_lanes ? 32 : 8>;
  Backend::launch(q, Kernel::groups(rows, cols), Kernel{rows, cols, in, ld_in, out, ld_out});
}

}  // namespace portkern::transpose_kernels
