// mask written directly in CUDA, for the portability comparison: one kernel per kind (a template, as the
// original's six), the same flat chunking and row walk (row j tracked without division), 256 threads, four
// int4 (or int) vectors per thread, __ldg loads issued before the stores.
#include "ops/glu/row_walk.hpp"
#include "ops/mask/backends.hpp"
#include "portkern/runtime/cuda_check.hpp"

namespace portkern::ops::mask_impl {

namespace {

constexpr int threads = 256, per_thread = 4;

template <MaskKind Kind, int V>
__global__ void __launch_bounds__(threads) mask_native(row_walk::Plan plan, const std::int32_t* __restrict__ per_row,
                                                       std::int64_t radius, std::int32_t fill,
                                                       const std::int32_t* in, std::int32_t* out) {
  using T = std::conditional_t<V == 4, int4, int>;
  const std::int64_t first = std::int64_t(blockIdx.x) * plan.chunk + std::int64_t(threadIdx.x) * V;
  row_walk::Pos pos = row_walk::item_start<true>(plan, row_walk::group_start(plan, blockIdx.x),
                                                 std::int64_t(threadIdx.x) * V);
  T v[per_thread];
  std::int64_t col[per_thread];
  Keep keep[per_thread];
#pragma unroll
  for (int k = 0; k < per_thread; ++k) {
    col[k] = pos.col;
    if (first + k * plan.step < plan.total) {
      v[k] = *reinterpret_cast<const T*>(in + first + k * plan.step);   // in may equal out: no __ldg
      keep[k] = keep_range<Kind>(pos.sub, per_row, radius);
    }
    row_walk::advance<true>(plan, pos);
  }
#pragma unroll
  for (int k = 0; k < per_thread; ++k) {
    if (first + k * plan.step >= plan.total) continue;
    int* e = reinterpret_cast<int*>(&v[k]);
#pragma unroll
    for (int i = 0; i < V; ++i) {
      const std::int64_t c = col[k] + i;
      e[i] = c >= keep[k].lo && c < keep[k].hi ? e[i] : fill;
    }
    *reinterpret_cast<T*>(out + first + k * plan.step) = v[k];
  }
}

template <MaskKind Kind, int V>
void launch(Queue& queue, const Problem& p, const std::int32_t* in, std::int32_t* out) {
  const auto plan = row_walk::make_plan(p.batches * p.rows, p.cols, p.rows, std::int64_t(threads) * V, per_thread);
  if (plan.groups() == 0) return;
  mask_native<Kind, V><<<unsigned(plan.groups()), threads, 0, static_cast<cudaStream_t>(queue.native_stream())>>>(
      plan, p.per_row, p.radius, p.fill, in, out);
  PORTKERN_CUDA_CHECK("portkern::ops::mask (native)", cudaGetLastError());
}

template <int V>
void launch_width(Queue& queue, const Problem& p, const std::int32_t* in, std::int32_t* out) {
  switch (p.kind) {
    case MaskKind::sequence: return launch<MaskKind::sequence, V>(queue, p, in, out);
    case MaskKind::window: return launch<MaskKind::window, V>(queue, p, in, out);
    case MaskKind::upper: return launch<MaskKind::upper, V>(queue, p, in, out);
    case MaskKind::lower: return launch<MaskKind::lower, V>(queue, p, in, out);
    case MaskKind::upper_diag: return launch<MaskKind::upper_diag, V>(queue, p, in, out);
    case MaskKind::lower_diag: return launch<MaskKind::lower_diag, V>(queue, p, in, out);
  }
}

}  // namespace

void native_cuda(Queue& queue, const Problem& p, const std::int32_t* in, std::int32_t* out) {
  if (vector_width(p, in, out) == 4) launch_width<4>(queue, p, in, out);
  else launch_width<1>(queue, p, in, out);
}

}  // namespace portkern::ops::mask_impl
