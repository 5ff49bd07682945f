// Host side of the wgmma kernels (wgmma_kernel.cuh): the TMA tensor maps of A, B and C, the choice of tile width
// and the launch. Built for sm_90a alone (src/gemm/CMakeLists.txt): wgmma and setmaxnreg exist only there.
#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <string>
#include <string_view>
#include <cstdint>
#include <type_traits>

#include "gemm/cuda_wgmma/launch.hpp"
#include "gemm/cuda_wgmma/wgmma_kernel.cuh"
#include "portkern/error.hpp"
#include "portkern/runtime/cuda_check.hpp"

namespace portkern::gemm_impl::cuda_wgmma {

namespace {

constexpr const char* who = "portkern::gemm (cuda_wgmma)";
void check(cudaError_t e, const char* what) { ::portkern::detail::cuda_check(e, who, what); }

// A driver function (cuTensorMapEncodeTiled, cuTensorMapEncodeIm2col), found through the runtime so that nothing
// links the driver library itself (the library must load on machines without a GPU driver).
void* driver_function(const char* name) {
  void* f = nullptr;
  cudaDriverEntryPointQueryResult found{};
  check(cudaGetDriverEntryPointByVersion(name, &f, 12000, cudaEnableDefault, &found),
        ("cudaGetDriverEntryPointByVersion(" + std::string(name) + ")").c_str());
  if (found != cudaDriverEntryPointSuccess || !f) fail(who, "the CUDA driver has no " + std::string(name));
  return f;
}
using Encode = decltype(&cuTensorMapEncodeTiled);
Encode encoder() {
  static const auto encode = reinterpret_cast<Encode>(driver_function("cuTensorMapEncodeTiled"));
  return encode;
}

// Programmatic dependent launch: the wgmma kernel is launched while the stream's previous kernel still runs, sets
// up its barriers and fetches its tensor maps, and waits for that kernel's completion before it touches memory
// (griddepcontrol.wait, wgmma_kernel.cuh): launch latency and set-up hidden behind the previous call, as in a
// network's chain of layers or a benchmark's back-to-back calls. PORTKERN_WGMMA_OVERLAP=0 launches it plainly
// (measurement only).
bool overlap_allowed() {
  const char* f = std::getenv("PORTKERN_WGMMA_OVERLAP");
  return !f || std::string_view(f) != "0";
}

// The copy engine's view of one element type.
template <class Type>
struct Stored;
template <>
struct Stored<Bf16> {
  static constexpr std::int64_t bytes = 2;
  static constexpr CUtensorMapDataType type = CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
};
template <>
struct Stored<F16> {
  static constexpr std::int64_t bytes = 2;
  static constexpr CUtensorMapDataType type = CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
};
template <>
struct Stored<Tf32> {   // fp32 values, copied as they are (the tensor cores read their top 19 bits)
  static constexpr std::int64_t bytes = 4;
  static constexpr CUtensorMapDataType type = CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
};

// A 3-D tensor map over a strided batch of column-major matrices: `inner` values contiguous, `outer` columns ld
// apart, problems `stride` apart; boxes of box_inner x box_outer, 128-byte swizzle, zeros outside.
template <class Type>
CUtensorMap tensor_map(const void* base, std::int64_t inner, std::int64_t outer, std::int64_t ld, std::int64_t batch,
                       std::int64_t stride, int box_inner, int box_outer, CUtensorMapDataType type = Stored<Type>::type) {
  constexpr std::int64_t bytes = Stored<Type>::bytes;
  const cuuint64_t dims[3] = {cuuint64_t(inner), cuuint64_t(outer), cuuint64_t(batch)};
  // One problem: any valid stride (a multiple of 16 bytes) for its single index.
  const std::int64_t problem_bytes = batch > 1 ? stride * bytes : (ld * outer * bytes + 15) / 16 * 16;
  const cuuint64_t strides[2] = {cuuint64_t(ld * bytes), cuuint64_t(problem_bytes)};
  const cuuint32_t box[3] = {cuuint32_t(box_inner), cuuint32_t(box_outer), 1};
  const cuuint32_t element_strides[3] = {1, 1, 1};
  CUtensorMap map{};
  const CUresult r = encoder()(&map, type, 3, const_cast<void*>(base), dims, strides, box,
                               element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                               CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS)
    fail(who, "cuTensorMapEncodeTiled failed (" + std::to_string(int(r)) + ") for a " + std::to_string(inner) + " x " +
                  std::to_string(outer) + " operand, ld " + std::to_string(ld));
  return map;
}

// The copy engine's im2col view of an NHWC fp32 image (A as windows, windows_by_engine): boxes of 128 pixels x 32
// channels (one 128-byte swizzled line per pixel), the pixels walking the output positions by the strides across
// rows and images (launch.hpp's image_corners), the tap an offset given with each copy.
using EncodeIm2col = decltype(&cuTensorMapEncodeIm2col);
CUtensorMap windows_map(const Windows& w, CUtensorMapDataType type) {
  static const auto encode = reinterpret_cast<EncodeIm2col>(driver_function("cuTensorMapEncodeIm2col"));
  const std::int64_t images = w.pixels / (std::int64_t(w.out_h) * w.out_w);
  const cuuint64_t dims[4] = {cuuint64_t(w.channels), cuuint64_t(w.width), cuuint64_t(w.height), cuuint64_t(images)};
  const cuuint64_t strides[3] = {cuuint64_t(w.channels) * 4, cuuint64_t(w.channels) * 4 * w.width,
                                 cuuint64_t(w.channels) * 4 * w.width * w.height};
  const ImageCorners corners = image_corners(w);
  // Innermost first, as the dimensions: W, then H (the other order fails the asymmetric-padding tests on the H100).
  const int lower[2] = {int(corners.lower_w), int(corners.lower_h)};
  const int upper[2] = {int(corners.upper_w), int(corners.upper_h)};
  const cuuint32_t element_strides[4] = {1, cuuint32_t(w.stride_w), cuuint32_t(w.stride_h), 1};
  CUtensorMap map{};
  const CUresult r = encode(&map, type, 4, const_cast<void*>(w.image), dims, strides, lower,
                            upper, 32, kernel::block_m, element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                            CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                            CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS)
    fail(who, "cuTensorMapEncodeIm2col failed (" + std::to_string(int(r)) + ") for a " + std::to_string(w.height) +
                  " x " + std::to_string(w.width) + " x " + std::to_string(w.channels) + " image");
  return map;
}

template <class Type, int BN, bool AKMajor, bool BKMajor, int Passes, bool ARegisters, bool Threads,
          bool Windows = false, bool Finish = false>
void launch_kernel(const Problem& p, const Plan& plan, std::int64_t segment_k, int multiprocessors,
                   std::uint32_t* counters, cudaStream_t stream) {
  constexpr int b_parts = ARegisters && Passes == 3 ? 2 : 1, stage_passes = ARegisters ? 1 : Passes;
  constexpr int Stages = kernel::stages_for(BN, b_parts);
  using L = kernel::Layout<Type, BN, Stages, b_parts>;
  auto* const k = &kernel::gemm<Type, BN, Stages, AKMajor, BKMajor, Passes, ARegisters, Threads, Windows, Finish>;
  static std::once_flag raised;
  std::call_once(raised, [&] {
    check(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, L::smem_bytes),
          "cudaFuncSetAttribute(max dynamic shared memory)");
  });
  constexpr int mn_box = L::mn_box_values;
  // 3xTF32: each rewritten row holds both parts, the small one segment_k values after the big one.
  const std::int64_t k_extent = Passes == 3 ? 2 * segment_k : p.k;
  // TF32 read in place: the copy engine rounds fp32 to TF32 on the way (3xTF32's parts are copied as they
  // are: the tensor cores' truncation of the small parts, stored plus half a TF32 ulp, rounds them). A read
  // into registers is copied as it is stored: the consumers round or split it.
  constexpr CUtensorMapDataType type =
      std::is_same_v<Type, Tf32> && Passes == 1 ? CU_TENSOR_MAP_DATA_TYPE_TFLOAT32 : Stored<Type>::type;
  constexpr CUtensorMapDataType a_type = ARegisters ? Stored<Type>::type : type;
  const std::int64_t a_extent = ARegisters ? p.k : k_extent;
  // Operands copied by threads have no tensor map (and are never 3xTF32's rewritten parts: k_extent is k).
  if ((plan.a_chunk && a_extent != p.k) || (plan.b_chunk && k_extent != p.k))
    fail(who, "3xTF32's rewritten parts are copied by the copy engine");
  kernel::ThreadCopies by_threads;
  if (plan.a_chunk) by_threads.a = {p.a, p.lda, p.stride_a, AKMajor ? p.k : p.m, AKMajor ? p.m : p.k, plan.a_chunk};
  if (Windows != (p.windows != nullptr)) fail(who, "windows launched on a kernel without them, or the reverse");
  if constexpr (Windows) by_threads.windows = *p.windows;
  if (plan.b_chunk) by_threads.b = {p.b, p.ldb, p.stride_b, BKMajor ? p.k : p.n, BKMajor ? p.n : p.k, plan.b_chunk};
  const CUtensorMap map_a =
      Windows ? (plan.a_chunk ? CUtensorMap{} : windows_map(*p.windows, a_type))
      : plan.a_chunk ? CUtensorMap{}
      : AKMajor ? tensor_map<Type>(p.a, a_extent, p.m, p.lda, p.batch, p.stride_a, L::bk, kernel::block_m, a_type)
                : tensor_map<Type>(p.a, p.m, a_extent, p.lda, p.batch, p.stride_a, mn_box, L::bk, a_type);
  const CUtensorMap map_b =
      plan.b_chunk ? CUtensorMap{}
      : BKMajor ? tensor_map<Type>(p.b, k_extent, p.n, p.ldb, p.batch, p.stride_b, L::bk, BN, type)
                : tensor_map<Type>(p.b, p.n, k_extent, p.ldb, p.batch, p.stride_b, mn_box, L::bk, type);
  // A part of k holds whole k-tiles, all their passes (3xTF32 sums a k-tile's passes before adding them up).
  const int whole_tiles = int((p.k + L::bk - 1) / L::bk);
  const int per_split = (whole_tiles + plan.splits - 1) / plan.splits;
  const int splits = (whole_tiles + per_split - 1) / per_split;   // no empty part
  const int k_tiles = whole_tiles * stage_passes;
  constexpr CUtensorMapDataType fp32 = CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
  // C through the copy engine, which writes whole 16-byte units of its contiguous dimension (launch.hpp's CStore):
  // its extent there stops at a multiple of 4, the kernel's threads write the rest.
  const CStore store = plan.c_store;
  const std::int64_t c_contiguous = (p.c_transposed ? p.n : p.m) / 4 * 4;
  if (store != CStore::threads && c_contiguous == 0)
    fail(who, "C through the copy engine needs at least 4 rows (columns where transposed)");
  // Boxes of a slab (wgmma_kernel.cuh): column-major C, box_values rows x slab_columns columns; transposed C,
  // slab_columns columns x the warpgroup's rows.
  using kernel::box_values, kernel::slab_columns;
  const CUtensorMap map_c =
      store == CStore::threads ? CUtensorMap{}
      : p.c_transposed
          ? tensor_map<Tf32>(p.c, c_contiguous, p.m, p.ldc, p.batch, p.stride_c, slab_columns, kernel::atom_rows, fp32)
          : tensor_map<Tf32>(p.c, c_contiguous, p.n, p.ldc, p.batch, p.stride_c, box_values, slab_columns, fp32);
  // Split k with beta != 1: the parts of each tile are ordered by counters (the first to finish writes, the
  // others add).
  const bool ordered = ordered_split(splits, p.beta);
  if (ordered && !counters) fail(who, "split k with beta != 1 needs the counters that order its parts");
  kernel::Output out{p.m, p.n, p.ldc, p.stride_c, p.alpha, p.beta, p.c,
                     int((p.m + kernel::block_m - 1) / kernel::block_m), int((p.n + BN - 1) / BN),
                     k_tiles, splits, per_split * stage_passes, int(segment_k), 0, 0, p.c_transposed, store,
                     ordered ? counters : nullptr, plan.fused_epilogue ? p.epilogue : Epilogue{}};
  if (plan.fused_epilogue != Finish || (Finish && (plan.splits != 1 || p.beta != 0.f)))
    fail(who, "the epilogue is fused only into windows' unsplit products with beta 0, by the kernels that apply it");
  // Items of one launch fit an int.
  const std::int64_t per_problem = std::int64_t(out.tiles_m) * out.tiles_n * splits;
  const std::int64_t per_launch = std::max<std::int64_t>(1, (std::int64_t(1) << 31) / per_problem - 1);
  for (std::int64_t first = 0; first < p.batch; first += per_launch) {
    out.batch0 = int(first);
    out.items = int(std::min(p.batch - first, per_launch) * per_problem);
    const unsigned blocks = unsigned(std::min<std::int64_t>(out.items, multiprocessors));
    cudaLaunchConfig_t config{};
    config.gridDim = blocks, config.blockDim = kernel::threads, config.dynamicSmemBytes = L::smem_bytes;
    config.stream = stream;
    cudaLaunchAttribute early{};
    early.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    early.val.programmaticStreamSerializationAllowed = 1;
    if (overlap_allowed()) config.attrs = &early, config.numAttrs = 1;
    check(cudaLaunchKernelEx(&config, k, map_a, map_b, map_c, out, by_threads), "launch of the wgmma GEMM");
  }
}

// The kernel with copies by threads where the plan has any (16-bit inputs, and fp32 A read into registers: no
// other kernel gets them), else the copy engine's alone.
template <class Type, int BN, bool AKMajor, bool BKMajor, int Passes, bool ARegisters = false>
void launch(const Problem& p, const Plan& plan, std::int64_t segment_k, int multiprocessors, std::uint32_t* counters,
            cudaStream_t stream) {
  if constexpr (!std::is_same_v<Type, Tf32> || ARegisters) {
    if (plan.a_chunk || plan.b_chunk)
      return launch_kernel<Type, BN, AKMajor, BKMajor, Passes, ARegisters, true>(p, plan, segment_k, multiprocessors,
                                                                                 counters, stream);
  }
  if (plan.a_chunk || plan.b_chunk) fail(who, "copies by threads planned for a kernel without them");
  launch_kernel<Type, BN, AKMajor, BKMajor, Passes, ARegisters, false>(p, plan, segment_k, multiprocessors, counters,
                                                                      stream);
}

// fp32 inputs: B K-major; A K-major, or any layout read into registers. 3xTF32 keeps two accumulators: 256
// columns would need 256 registers.
template <int BN>
void launch_fp32(const Problem& p, Plan plan, std::int64_t segment_k, int multiprocessors, std::uint32_t* counters,
                 cudaStream_t stream) {
  const bool a_k = p.trans_a, x3 = segment_k > 0;
  if (p.windows) {   // A as windows: K-major; in registers, but TF32 boxes of the copy engine read in place
    if (!a_k || p.trans_b || (!plan.a_registers && (x3 || plan.a_chunk)))
      fail(who, "windows are A's, in registers but for TF32 by the copy engine");
    // The kernel that applies the epilogue where the plan fuses it, else the one without (launch_kernel checks).
    auto windows = [&]<int Passes, bool ARegisters>() {
      if constexpr (epilogue_fusable<BN, ARegisters, true>()) {
        if (plan.fused_epilogue)
          return launch_kernel<Tf32, BN, true, true, Passes, ARegisters, true, true, true>(
              p, plan, segment_k, multiprocessors, counters, stream);
      }
      launch_kernel<Tf32, BN, true, true, Passes, ARegisters, true, true>(p, plan, segment_k, multiprocessors, counters,
                                                                         stream);
    };
    if constexpr (BN <= 128) {
      if (x3) return windows.template operator()<3, true>();
    } else {
      if (x3) fail(who, "3xTF32 runs on tiles of 64 or 128 columns");
    }
    if (!plan.a_registers) return windows.template operator()<1, false>();
    return windows.template operator()<1, true>();
  }
  if (p.trans_b || (!a_k && !plan.a_registers))
    fail(who, "TF32 operands must have k contiguous (wgmma_gemm.cpp rewrites them)");
  if (x3 && BN > 128) fail(who, "3xTF32 runs on tiles of 64 or 128 columns");
  if constexpr (BN <= 128) {
    if (x3 && plan.a_registers)
      return a_k ? launch<Tf32, BN, true, true, 3, true>(p, plan, segment_k, multiprocessors, counters, stream)
                 : launch<Tf32, BN, false, true, 3, true>(p, plan, segment_k, multiprocessors, counters, stream);
    if (x3) return launch<Tf32, BN, true, true, 3>(p, plan, segment_k, multiprocessors, counters, stream);
  }
  // TF32 reads a K-major A in place through the copy engine; an M-major one, or one copied by threads, into
  // registers.
  if (plan.a_registers)
    return a_k ? launch<Tf32, BN, true, true, 1, true>(p, plan, 0, multiprocessors, counters, stream)
               : launch<Tf32, BN, false, true, 1, true>(p, plan, 0, multiprocessors, counters, stream);
  launch<Tf32, BN, true, true, 1>(p, plan, 0, multiprocessors, counters, stream);
}

template <class Type, int BN>
void launch_transposes(const Problem& p, Plan plan, std::int64_t segment_k, int multiprocessors,
                       std::uint32_t* counters, cudaStream_t stream) {
  if constexpr (std::is_same_v<Type, Tf32>) {
    launch_fp32<BN>(p, plan, segment_k, multiprocessors, counters, stream);
  } else {
    const bool a_k = p.trans_a, b_k = !p.trans_b;   // which operands have k contiguous
    if (a_k && b_k) return launch<Type, BN, true, true, 1>(p, plan, 0, multiprocessors, counters, stream);
    if (a_k) return launch<Type, BN, true, false, 1>(p, plan, 0, multiprocessors, counters, stream);
    if (b_k) return launch<Type, BN, false, true, 1>(p, plan, 0, multiprocessors, counters, stream);
    launch<Type, BN, false, false, 1>(p, plan, 0, multiprocessors, counters, stream);
  }
}

template <class Type>
void launch_type(Plan plan, const Problem& p, std::int64_t segment_k, int multiprocessors, std::uint32_t* counters,
                 cudaStream_t stream) {
  switch (plan.columns) {
    case 256: return launch_transposes<Type, 256>(p, plan, segment_k, multiprocessors, counters, stream);
    case 128: return launch_transposes<Type, 128>(p, plan, segment_k, multiprocessors, counters, stream);
    case 64: return launch_transposes<Type, 64>(p, plan, segment_k, multiprocessors, counters, stream);
  }
  fail(who, "no wgmma tile of " + std::to_string(plan.columns) + " columns");
}

}  // namespace

void launch_wgmma(Input input, Plan plan, const Problem& p, std::int64_t segment_k, int multiprocessors,
                  std::uint32_t* counters, cudaStream_t stream) {
  switch (input) {
    case Input::bf16: return launch_type<Bf16>(plan, p, 0, multiprocessors, counters, stream);
    case Input::f16: return launch_type<F16>(plan, p, 0, multiprocessors, counters, stream);
    case Input::tf32: return launch_type<Tf32>(plan, p, 0, multiprocessors, counters, stream);
    case Input::tf32x3: return launch_type<Tf32>(plan, p, segment_k, multiprocessors, counters, stream);
  }
}

}  // namespace portkern::gemm_impl::cuda_wgmma
