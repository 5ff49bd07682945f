// Host side of the wgmma kernels (wgmma_kernel.cuh): the TMA tensor maps of A and B, the choice of tile width
// and the launch. Built for sm_90a alone (src/gemm/CMakeLists.txt): wgmma and setmaxnreg exist only there.
#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <mutex>
#include <string>
#include <type_traits>

#include "gemm/cuda_wgmma/launch.hpp"
#include "gemm/cuda_wgmma/wgmma_kernel.cuh"
#include "portkern/error.hpp"
#include "portkern/runtime/cuda_check.hpp"

namespace portkern::gemm_impl::cuda_wgmma {

namespace {

constexpr const char* who = "portkern::gemm (cuda_wgmma)";
void check(cudaError_t e, const char* what) { ::portkern::detail::cuda_check(e, who, what); }

// cuTensorMapEncodeTiled, found through the runtime so that nothing links the driver library itself (the
// library must load on machines without a GPU driver).
using Encode = decltype(&cuTensorMapEncodeTiled);
Encode encoder() {
  static const Encode encode = [] {
    void* f = nullptr;
    cudaDriverEntryPointQueryResult found{};
    check(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &f, 12000, cudaEnableDefault, &found),
          "cudaGetDriverEntryPointByVersion(cuTensorMapEncodeTiled)");
    if (found != cudaDriverEntryPointSuccess || !f) fail(who, "the CUDA driver has no cuTensorMapEncodeTiled");
    return reinterpret_cast<Encode>(f);
  }();
  return encode;
}

// A 3-D tensor map over a strided batch of column-major 16-bit matrices: `inner` values contiguous, `outer`
// columns ld apart, problems `stride` apart; boxes of box_inner x box_outer, 128-byte swizzle, zeros outside.
CUtensorMap tensor_map(Input input, const void* base, std::int64_t inner, std::int64_t outer, std::int64_t ld,
                       std::int64_t batch, std::int64_t stride, int box_inner, int box_outer) {
  constexpr std::int64_t bytes = 2;
  const cuuint64_t dims[3] = {cuuint64_t(inner), cuuint64_t(outer), cuuint64_t(batch)};
  // One problem: any valid stride (a multiple of 16 bytes) for its single index.
  const std::int64_t problem_bytes = batch > 1 ? stride * bytes : (ld * outer * bytes + 15) / 16 * 16;
  const cuuint64_t strides[2] = {cuuint64_t(ld * bytes), cuuint64_t(problem_bytes)};
  const cuuint32_t box[3] = {cuuint32_t(box_inner), cuuint32_t(box_outer), 1};
  const cuuint32_t element_strides[3] = {1, 1, 1};
  CUtensorMap map{};
  const CUresult r = encoder()(&map,
                               input == Input::bf16 ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 : CU_TENSOR_MAP_DATA_TYPE_FLOAT16,
                               3, const_cast<void*>(base), dims, strides, box, element_strides,
                               CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                               CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS)
    fail(who, "cuTensorMapEncodeTiled failed (" + std::to_string(int(r)) + ") for a " + std::to_string(inner) + " x " +
                  std::to_string(outer) + " operand, ld " + std::to_string(ld));
  return map;
}

template <class Type, int BN, int Stages, bool AKMajor, bool BKMajor>
void launch(const Problem& p, int splits, int multiprocessors, cudaStream_t stream) {
  using L = kernel::Layout<Type, BN, Stages>;
  auto* const k = &kernel::gemm<Type, BN, Stages, AKMajor, BKMajor>;
  static std::once_flag raised;
  std::call_once(raised, [&] {
    check(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, L::smem_bytes),
          "cudaFuncSetAttribute(max dynamic shared memory)");
  });
  const Input input = std::is_same_v<Type, Bf16> ? Input::bf16 : Input::f16;
  constexpr int mn_box = kernel::atom_rows;
  const CUtensorMap map_a = AKMajor ? tensor_map(input, p.a, p.k, p.m, p.lda, p.batch, p.stride_a, L::bk, kernel::block_m)
                                    : tensor_map(input, p.a, p.m, p.k, p.lda, p.batch, p.stride_a, mn_box, L::bk);
  const CUtensorMap map_b = BKMajor ? tensor_map(input, p.b, p.k, p.n, p.ldb, p.batch, p.stride_b, L::bk, BN)
                                    : tensor_map(input, p.b, p.n, p.k, p.ldb, p.batch, p.stride_b, mn_box, L::bk);
  const int k_tiles = int((p.k + L::bk - 1) / L::bk);
  const int per_split = (k_tiles + splits - 1) / splits;
  splits = (k_tiles + per_split - 1) / per_split;   // no empty part
  kernel::Output out{p.m, p.n, p.ldc, p.stride_c, p.alpha, p.beta, p.c,
                     int((p.m + kernel::block_m - 1) / kernel::block_m), int((p.n + BN - 1) / BN),
                     k_tiles, splits, per_split, 0, 0};
  // Items of one launch fit an int.
  const std::int64_t per_problem = std::int64_t(out.tiles_m) * out.tiles_n * splits;
  const std::int64_t per_launch = std::max<std::int64_t>(1, (std::int64_t(1) << 31) / per_problem - 1);
  for (std::int64_t first = 0; first < p.batch; first += per_launch) {
    out.batch0 = int(first);
    out.items = int(std::min(p.batch - first, per_launch) * per_problem);
    const unsigned blocks = unsigned(std::min<std::int64_t>(out.items, multiprocessors));
    k<<<blocks, kernel::threads, L::smem_bytes, stream>>>(map_a, map_b, out);
    check(cudaGetLastError(), "launch of the wgmma GEMM");
  }
}

template <class Type, int BN, int Stages>
void launch_transposes(const Problem& p, int splits, int multiprocessors, cudaStream_t stream) {
  const bool a_k = p.trans_a, b_k = !p.trans_b;   // which operands have k contiguous
  if (a_k && b_k) return launch<Type, BN, Stages, true, true>(p, splits, multiprocessors, stream);
  if (a_k) return launch<Type, BN, Stages, true, false>(p, splits, multiprocessors, stream);
  if (b_k) return launch<Type, BN, Stages, false, true>(p, splits, multiprocessors, stream);
  launch<Type, BN, Stages, false, false>(p, splits, multiprocessors, stream);
}

template <class Type>
void launch_type(Plan plan, const Problem& p, int multiprocessors, cudaStream_t stream) {
  switch (plan.columns) {
    case 256: return launch_transposes<Type, 256, 4>(p, plan.splits, multiprocessors, stream);
    case 128: return launch_transposes<Type, 128, 6>(p, plan.splits, multiprocessors, stream);
    case 64: return launch_transposes<Type, 64, 8>(p, plan.splits, multiprocessors, stream);
  }
  fail(who, "no wgmma tile of " + std::to_string(plan.columns) + " columns");
}

}  // namespace

void launch_wgmma(Input input, Plan plan, const Problem& p, int multiprocessors, cudaStream_t stream) {
  if (input == Input::bf16) return launch_type<Bf16>(plan, p, multiprocessors, stream);
  launch_type<F16>(plan, p, multiprocessors, stream);
}

}  // namespace portkern::gemm_impl::cuda_wgmma
