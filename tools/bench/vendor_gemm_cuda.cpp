// cuBLAS on a GPU at its best, twice: in fp32 arithmetic (TF32 off: the ratio's reference) and with TF32
// tensor cores (CUBLAS_COMPUTE_32F_FAST_TF32: what PyTorch users get with allow_tf32), shown beside it with
// its error; and its GEMMs on 16-bit inputs (bfloat16 or half A and B, CUBLAS_COMPUTE_32F, fp32 C). For each shape and compute type the first call searches: the classic strided-batched call and
// up to 16 algorithms of cuBLASLt's heuristics, all with a 32 MiB workspace (PyTorch's on Hopper), each
// timed; later calls run the fastest. fp64 runs cublasDgemmStridedBatched.
#include "bench/vendor_gemm.hpp"

#if PORTKERN_HAVE_CUDA
#include <cublasLt.h>
#include <cublas_v2.h>

#include <map>
#include <memory>
#include <tuple>
#include <type_traits>

#include "bench/measure.hpp"
#include "portkern/error.hpp"
#include "portkern/runtime/buffer.hpp"
#endif

namespace portkern::bench {

#if PORTKERN_HAVE_CUDA
namespace {

void check(cublasStatus_t status, const char* call) {
  if (status != CUBLAS_STATUS_SUCCESS) fail("cuBLAS", std::string(call) + " failed: " + cublasGetStatusString(status));
}

constexpr std::size_t workspace_bytes = std::size_t(32) << 20;
constexpr int heuristic_algorithms = 16;

// One shape's cuBLASLt descriptors (column-major, strided batch) and the algorithm chosen for it.
struct LtPlan {
  cublasLtMatmulDesc_t op = nullptr;
  cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
  cublasLtMatmulAlgo_t algo{};
  bool use_lt = false;   // false: the classic cuBLAS call was the fastest
  ~LtPlan() {
    if (a) cublasLtMatrixLayoutDestroy(a);
    if (b) cublasLtMatrixLayoutDestroy(b);
    if (c) cublasLtMatrixLayoutDestroy(c);
    if (op) cublasLtMatmulDescDestroy(op);
  }
};

cublasLtMatrixLayout_t layout(cudaDataType_t type, std::int64_t rows, std::int64_t cols, std::int64_t ld,
                              std::int64_t batch, std::int64_t stride) {
  cublasLtMatrixLayout_t l = nullptr;
  check(cublasLtMatrixLayoutCreate(&l, type, std::uint64_t(rows), std::uint64_t(cols), ld), "cublasLtMatrixLayoutCreate");
  const std::int32_t count = std::int32_t(batch);
  check(cublasLtMatrixLayoutSetAttribute(l, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &count, sizeof count), "batch count");
  check(cublasLtMatrixLayoutSetAttribute(l, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &stride, sizeof stride),
        "batch stride");
  return l;
}

// cuBLAS and cuBLASLt handles sharing one workspace, and the plans chosen so far.
class Cublas {
 public:
  explicit Cublas(const Device& device) : workspace_(device, std::int64_t(workspace_bytes)) {
    check(cublasCreate(&handle_), "cublasCreate");
    check(cublasLtCreate(&lt_), "cublasLtCreate");
    check(cublasSetMathMode(handle_, CUBLAS_DEFAULT_MATH), "cublasSetMathMode");
    check(cublasSetWorkspace(handle_, workspace_.data(), workspace_bytes), "cublasSetWorkspace");
  }
  ~Cublas() {
    plans_.clear();
    cublasLtDestroy(lt_);
    cublasDestroy(handle_);
  }
  Cublas(const Cublas&) = delete;
  Cublas& operator=(const Cublas&) = delete;

  std::string version() {
    int v = 0;
    check(cublasGetVersion(handle_, &v), "cublasGetVersion");
    return "cuBLAS " + std::to_string(v / 10000) + "." + std::to_string(v / 100 % 100) + "." + std::to_string(v % 100);
  }

  // float, bfloat16 or half inputs, fp32 C.
  template <class In>
  void sgemm(Queue& q, const GemmOperands<float, In>& g, cublasComputeType_t compute) {
    check(cublasSetStream(handle_, stream(q)), "cublasSetStream");
    const auto key = std::make_tuple(g.m, g.n, g.k, g.batch, g.ta, g.tb, int(compute) * 256 + int(input_type<In>));
    auto found = plans_.find(key);
    if (found == plans_.end()) found = plans_.emplace(key, search(q, g, compute)).first;
    run(q, g, compute, *found->second);
  }

  void dgemm(Queue& q, const GemmOperands<double>& g) {
    check(cublasSetStream(handle_, stream(q)), "cublasSetStream");
    check(cublasDgemmStridedBatched(handle_, op(g.ta), op(g.tb), int(g.m), int(g.n), int(g.k), &g.alpha, g.a,
                                    int(g.lda), g.stride_a, g.b, int(g.ldb), g.stride_b, &g.beta, g.c, int(g.ldc),
                                    g.stride_c, int(g.batch)),
          "cublasDgemmStridedBatched");
  }

 private:
  static cudaStream_t stream(Queue& q) { return static_cast<cudaStream_t>(q.native_stream()); }
  static cublasOperation_t op(bool trans) { return trans ? CUBLAS_OP_T : CUBLAS_OP_N; }
  template <class In>
  static constexpr cudaDataType_t input_type = std::is_same_v<In, bfloat16> ? CUDA_R_16BF
                                               : std::is_same_v<In, float16> ? CUDA_R_16F
                                                                               : CUDA_R_32F;

  template <class In>
  void run(Queue& q, const GemmOperands<float, In>& g, cublasComputeType_t compute, const LtPlan& plan) {
    if (plan.use_lt) {
      check(cublasLtMatmul(lt_, plan.op, &g.alpha, g.a, plan.a, g.b, plan.b, &g.beta, g.c, plan.c, g.c, plan.c,
                           &plan.algo, workspace_.data(), workspace_bytes, stream(q)),
            "cublasLtMatmul");
      return;
    }
    if constexpr (std::is_same_v<In, float>) {
      if (compute == CUBLAS_COMPUTE_32F) {
        check(cublasSgemmStridedBatched(handle_, op(g.ta), op(g.tb), int(g.m), int(g.n), int(g.k), &g.alpha, g.a,
                                        int(g.lda), g.stride_a, g.b, int(g.ldb), g.stride_b, &g.beta, g.c, int(g.ldc),
                                        g.stride_c, int(g.batch)),
              "cublasSgemmStridedBatched");
        return;
      }
    }
    check(cublasGemmStridedBatchedEx(handle_, op(g.ta), op(g.tb), int(g.m), int(g.n), int(g.k), &g.alpha, g.a,
                                     input_type<In>, int(g.lda), g.stride_a, g.b, input_type<In>, int(g.ldb), g.stride_b,
                                     &g.beta, g.c, CUDA_R_32F, int(g.ldc), g.stride_c, int(g.batch), compute,
                                     CUBLAS_GEMM_DEFAULT),
          "cublasGemmStridedBatchedEx");
  }

  // Times the classic call and cuBLASLt's heuristic algorithms on these operands; keeps the fastest.
  template <class In>
  std::unique_ptr<LtPlan> search(Queue& q, const GemmOperands<float, In>& g, cublasComputeType_t compute) {
    auto plan = std::make_unique<LtPlan>();
    const double classic_ms = measure(q, [&] { run(q, g, compute, *plan); }, 1.0, 3).median_ms;
    check(cublasLtMatmulDescCreate(&plan->op, compute, CUDA_R_32F), "cublasLtMatmulDescCreate");
    const cublasOperation_t ta = op(g.ta), tb = op(g.tb);
    check(cublasLtMatmulDescSetAttribute(plan->op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof ta), "transa");
    check(cublasLtMatmulDescSetAttribute(plan->op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof tb), "transb");
    plan->a = layout(input_type<In>, g.ta ? g.k : g.m, g.ta ? g.m : g.k, g.lda, g.batch, g.stride_a);
    plan->b = layout(input_type<In>, g.tb ? g.n : g.k, g.tb ? g.k : g.n, g.ldb, g.batch, g.stride_b);
    plan->c = layout(CUDA_R_32F, g.m, g.n, g.ldc, g.batch, g.stride_c);
    cublasLtMatmulPreference_t preference = nullptr;
    check(cublasLtMatmulPreferenceCreate(&preference), "cublasLtMatmulPreferenceCreate");
    const std::uint64_t limit = workspace_bytes;
    check(cublasLtMatmulPreferenceSetAttribute(preference, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &limit, sizeof limit),
          "workspace preference");
    cublasLtMatmulHeuristicResult_t results[heuristic_algorithms];
    int found = 0;
    const cublasStatus_t status = cublasLtMatmulAlgoGetHeuristic(lt_, plan->op, plan->a, plan->b, plan->c, plan->c,
                                                                 preference, heuristic_algorithms, results, &found);
    cublasLtMatmulPreferenceDestroy(preference);
    if (status != CUBLAS_STATUS_SUCCESS) found = 0;
    double best_ms = classic_ms;
    const cublasLtMatmulAlgo_t* best = nullptr;   // nullptr: the classic call
    plan->use_lt = true;
    for (int i = 0; i < found; ++i) {
      if (results[i].state != CUBLAS_STATUS_SUCCESS) continue;
      plan->algo = results[i].algo;
      const double ms = measure(q, [&] { run(q, g, compute, *plan); }, 1.0, 3).median_ms;
      if (ms < best_ms) best_ms = ms, best = &results[i].algo;
    }
    plan->use_lt = best != nullptr;
    if (best) plan->algo = *best;
    return plan;
  }

  cublasHandle_t handle_ = nullptr;
  cublasLtHandle_t lt_ = nullptr;
  Buffer<char> workspace_;
  std::map<std::tuple<std::int64_t, std::int64_t, std::int64_t, std::int64_t, bool, bool, int>, std::unique_ptr<LtPlan>> plans_;
};

}  // namespace

std::vector<VendorGemm> cuda_vendor_gemms(const Device& device) {
  auto cublas = std::make_shared<Cublas>(device);
  const std::string how = " (fastest per shape of the classic call and 16 cuBLASLt heuristic algorithms, 32 MiB workspace)";
  const std::string v = cublas->version();
  return {{"cublas", "ieee", v + " CUBLAS_COMPUTE_32F, TF32 off" + how,
           [cublas](Queue& q, const GemmOperands<float>& g) { cublas->sgemm(q, g, CUBLAS_COMPUTE_32F); },
           [cublas](Queue& q, const GemmOperands<double>& g) { cublas->dgemm(q, g); }, nullptr},
          {"cublas_tf32", "tf32", v + " CUBLAS_COMPUTE_32F_FAST_TF32" + how,
           [cublas](Queue& q, const GemmOperands<float>& g) { cublas->sgemm(q, g, CUBLAS_COMPUTE_32F_FAST_TF32); },
           nullptr, nullptr}};
}

template <class In>
VendorHalfGemm<In> cuda_vendor_half_gemm(const Device& device) {
  auto cublas = std::make_shared<Cublas>(device);
  const std::string type = std::is_same_v<In, bfloat16> ? "CUDA_R_16BF" : "CUDA_R_16F";
  return {"cublas", cublas->version() + " " + type + " inputs, CUBLAS_COMPUTE_32F, fp32 C (fastest per shape of the "
                                        "classic call and 16 cuBLASLt heuristic algorithms, 32 MiB workspace)",
          [cublas](Queue& q, const GemmOperands<float, In>& g) { cublas->sgemm(q, g, CUBLAS_COMPUTE_32F); }};
}
#else
std::vector<VendorGemm> cuda_vendor_gemms(const Device&) { return {}; }
template <class In>
VendorHalfGemm<In> cuda_vendor_half_gemm(const Device&) {
  return {};
}
#endif
template VendorHalfGemm<bfloat16> cuda_vendor_half_gemm<bfloat16>(const Device&);
template VendorHalfGemm<float16> cuda_vendor_half_gemm<float16>(const Device&);

}  // namespace portkern::bench
