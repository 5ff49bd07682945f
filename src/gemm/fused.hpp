// portkern::gemm with an epilogue, for the library's own layers (convolutions through GEMM, linear layers):
// C = alpha op(A) op(B) + beta C, then c(i, j) = relu?(c(i, j) + residual(i, j) + bias[i]) (GemmEpilogue,
// args.hpp). The same checks, choice and dispatch as portkern::gemm. A family that fuses the epilogue applies
// it to each tile of C while the tile is in cache (cpu_packed); with any other, the caller applies it after.
#pragma once

#include "gemm/args.hpp"
#include "portkern/blas.hpp"
#include "portkern/gemm_packed.hpp"

namespace portkern::gemm_impl {

// Returns whether the epilogue was applied (false: the caller applies it to C).
bool gemm_with_epilogue(Queue& queue, Op trans_a, Op trans_b, std::int64_t m, std::int64_t n, std::int64_t k,
                        float alpha, const float* a, std::int64_t lda, const float* b, std::int64_t ldb, float beta,
                        float* c, std::int64_t ldc, const GemmEpilogue<float>& epilogue, const GemmChoice& force);

// portkern::gemm_packed with an epilogue (the CPU's prepacked path always applies it); float products only.
template <class T>
bool gemm_packed_with_epilogue(Queue& queue, Op trans_b, std::int64_t n, T alpha, const GemmPackedA<T>& a,
                               const T* b, std::int64_t ldb, T beta, T* c, std::int64_t ldc,
                               const GemmEpilogue<T>& epilogue, Precision precision);

}  // namespace portkern::gemm_impl
