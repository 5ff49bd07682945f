// GEMM with BLAS semantics on any device: C = alpha * op(A) * op(B) + beta * C.
//
// Column-major like BLAS (a row-major entry point too); op(A) is m x k, op(B) is k x n, C is m x n; lda,
// ldb, ldc at least the rows the stored matrices hold (op none: A is m x k, lda >= m; op trans: A is k x m,
// lda >= k). beta == 0 means C is not read. m, n or k of 0 returns at once (k == 0 still scales C by beta).
// Pointers are memory of the queue's device. The deployment for the device (deploy/<device-class>/gemm.hpp)
// picks a kernel family and configuration from the shape and the precision (portkern/precision.hpp: the
// default, `accurate`, is fp32-accurate, possibly on tensor cores through 3xTF32; `ieee` and `tf32` as
// cuBLAS's pedantic and TF32 math); `force` sets the precision and may override the pick (tuning, experiments).
// Threads: any number of threads may call these with one shared queue or their own (runtime/queue.hpp,
// docs/threading.md), as long as concurrent calls do not write memory another reads or writes. Sizes whose
// products do not fit in 64 bits (lda * k, ldc * n, stride * batch) are portkern::Error, not wrapped values.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "portkern/bfloat16.hpp"
#include "portkern/float16.hpp"
#include "portkern/deploy/selector.hpp"
#include "portkern/precision.hpp"
#include "portkern/runtime/queue.hpp"

namespace portkern {

enum class Op { none, trans };
enum class Layout { col_major, row_major };

// The caller's choices: a family and configuration to use instead of the deployment's pick (empty fields: the
// deployment decides), and the precision of float products (fp64 is always IEEE). A forced configuration
// must compute with an arithmetic the precision allows ("..._x3" 3xTF32: accurate or tf32; "..._tf32": tf32).
struct GemmChoice {
  std::string family;   // a family of the registry: gemm_families(device) lists them
  std::string config;   // a configuration name of that family, e.g. "tiled/r4a1c4_wg16x16_local_k16_v1"
  Precision precision = Precision::accurate;
};

template <class T>
void gemm(Queue& queue, Op trans_a, Op trans_b, std::int64_t m, std::int64_t n, std::int64_t k, T alpha, const T* a,
          std::int64_t lda, const T* b, std::int64_t ldb, T beta, T* c, std::int64_t ldc, const GemmChoice& force = {});

// `batch` problems; problem i uses a + i * stride_a, b + i * stride_b, c + i * stride_c.
template <class T>
void gemm_strided_batched(Queue& queue, Op trans_a, Op trans_b, std::int64_t m, std::int64_t n, std::int64_t k,
                          T alpha, const T* a, std::int64_t lda, std::int64_t stride_a, const T* b, std::int64_t ldb,
                          std::int64_t stride_b, T beta, T* c, std::int64_t ldc, std::int64_t stride_c,
                          std::int64_t batch, const GemmChoice& force = {});

// Row-major (C-style) matrices: the same product, leading dimensions count columns.
template <class T>
void gemm(Queue& queue, Layout layout, Op trans_a, Op trans_b, std::int64_t m, std::int64_t n, std::int64_t k,
          T alpha, const T* a, std::int64_t lda, const T* b, std::int64_t ldb, T beta, T* c, std::int64_t ldc,
          const GemmChoice& force = {});

// BF16 inputs: A and B bfloat16 (portkern/bfloat16.hpp), alpha, beta and C float, products and sums in fp32
// (oneDNN's bf16 matmul with an f32 destination; cuBLAS's cublasGemmEx with 16BF inputs, 32F compute). The
// same BLAS semantics and checks as above. Denormal bfloat16 inputs may count as zero (AMX and AVX512-BF16
// do so). On the CPU the kernels (AMX, AVX512-BF16 or plain C++, the fastest the CPU runs) are described in
// src/gemm/bf16/bf16_gemm.hpp; on a GPU (device memory) src/gemm/cuda_wgmma/wgmma_gemm.hpp (Hopper's wgmma).
void gemm(Queue& queue, Op trans_a, Op trans_b, std::int64_t m, std::int64_t n, std::int64_t k, float alpha,
          const bfloat16* a, std::int64_t lda, const bfloat16* b, std::int64_t ldb, float beta, float* c,
          std::int64_t ldc);
void gemm(Queue& queue, Layout layout, Op trans_a, Op trans_b, std::int64_t m, std::int64_t n, std::int64_t k,
          float alpha, const bfloat16* a, std::int64_t lda, const bfloat16* b, std::int64_t ldb, float beta, float* c,
          std::int64_t ldc);
void gemm_strided_batched(Queue& queue, Op trans_a, Op trans_b, std::int64_t m, std::int64_t n, std::int64_t k,
                          float alpha, const bfloat16* a, std::int64_t lda, std::int64_t stride_a, const bfloat16* b,
                          std::int64_t ldb, std::int64_t stride_b, float beta, float* c, std::int64_t ldc,
                          std::int64_t stride_c, std::int64_t batch);
std::string gemm_bf16_kernel();   // the kernels those use on this CPU: "amx", "avx512" or "generic"

// FP16 inputs: A and B IEEE half (portkern/float16.hpp), alpha, beta and C float, products and sums in fp32
// (cuBLAS's cublasGemmEx with 16F inputs and 32F compute). The same semantics and checks. On a GPU the wgmma
// family as for bfloat16; on the CPU A and B are widened to fp32 (exactly) and multiplied by the fp32 GEMM.
void gemm(Queue& queue, Op trans_a, Op trans_b, std::int64_t m, std::int64_t n, std::int64_t k, float alpha,
          const float16* a, std::int64_t lda, const float16* b, std::int64_t ldb, float beta, float* c,
          std::int64_t ldc);
void gemm(Queue& queue, Layout layout, Op trans_a, Op trans_b, std::int64_t m, std::int64_t n, std::int64_t k,
          float alpha, const float16* a, std::int64_t lda, const float16* b, std::int64_t ldb, float beta, float* c,
          std::int64_t ldc);
void gemm_strided_batched(Queue& queue, Op trans_a, Op trans_b, std::int64_t m, std::int64_t n, std::int64_t k,
                          float alpha, const float16* a, std::int64_t lda, std::int64_t stride_a, const float16* b,
                          std::int64_t ldb, std::int64_t stride_b, float beta, float* c, std::int64_t ldc,
                          std::int64_t stride_c, std::int64_t batch);

// What the deployment picks for a float problem on a device at a precision, without running anything;
// `family` non-empty asks for the pick within that family. `path` is the route through the decision trees.
struct GemmSelection {
  std::string device_class, family, config, path;
};
GemmSelection select_gemm(const Device& device, const deploy::Problem& problem, const std::string& family = "",
                          Precision precision = Precision::accurate);

// What a device's deployment for a precision ships: its families and, for each, the configurations
// instantiated. `precision` is the deployment's own (a class without one for the precision asked for uses its
// default one, whose picks are checked against the precision when a call selects).
struct GemmDeployment {
  std::string device_class;
  Precision precision = Precision::accurate;
  std::vector<std::string> families;
  std::vector<std::vector<std::string>> configs;   // configs[i]: those of families[i]
};
GemmDeployment gemm_deployment(const Device& device, Precision precision = Precision::accurate);
GemmDeployment gemm_deployment_of_class(const std::string& device_class,   // "cpu-avx512", "cuda-sm90", ...
                                        Precision precision = Precision::accurate);

// A family of the GEMM registry (src/gemm/registry.hpp): its name and its whole configuration space (what
// can be forced or tuned; a deployment ships a subset of it).
struct GemmFamily {
  std::string name;
  std::vector<std::string> space;
  std::vector<std::string> tuning_part;   // the part `portkern tune` measures on the device unless asked for more
};
// The registry's families that run on `device`, in the registry's order.
std::vector<GemmFamily> gemm_families(const Device& device);
// Why `config` of `family` cannot run `problem` on `device` at `precision`; empty when it can.
std::string gemm_not_applicable(const Device& device, const deploy::Problem& problem, const std::string& family,
                                const std::string& config, Precision precision = Precision::accurate);

// The arithmetic configuration `config` (of a registry family) computes float products with when called at
// `precision`: IEEE FMA, 3xTF32 or TF32. Error for a name outside the registry.
Arithmetic gemm_arithmetic(const std::string& config, Precision precision = Precision::accurate);

// The device class whose deployment a device uses: "cpu-avx512", "cpu-avx2", "cuda-sm90".
std::string gemm_device_class(const Device& device);

}  // namespace portkern
