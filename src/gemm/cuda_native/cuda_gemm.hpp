// Native CUDA GEMM families for fp32 / fp64 (column-major BLAS semantics). Plain C++: no CUDA types, so that
// g++-compiled code can include it. Implemented in cuda_gemm.cu (explicit instantiations for float, double).
//
// For each of `batch` problems (pointers offset by i*stride_a/b/c): C = alpha * op(A) * op(B) + beta * C,
// op(A) m x k, op(B) k x n, column-major, lda >= rows of the stored A (m, or k when trans_a), likewise ldb, and
// ldc >= m. beta == 0: C is not read. alpha == 0 or k == 0: C = beta * C. Errors throw portkern::Error.
#pragma once

#include <cstdint>

namespace portkern::gemm_impl::cuda_native {

enum class Family { simt, splitk, tf32x3, smallk };

// Launches on `stream` (a cudaStream_t passed as void*); chooses the instantiation within the family from the
// shape. Family::tf32x3 (3xTF32 on the tensor cores, fp32-level accuracy) is float only: double runs simt.
template <class T>
void run(Family family, void* stream, bool trans_a, bool trans_b, std::int64_t m, std::int64_t n, std::int64_t k,
         T alpha, const T* a, std::int64_t lda, std::int64_t stride_a, const T* b, std::int64_t ldb,
         std::int64_t stride_b, T beta, T* c, std::int64_t ldc, std::int64_t stride_c, std::int64_t batch);

// A hand-written rule: which family for this shape (a cost model calibrated on the H100: small-k when k <= 16
// and C is large (bound by writing C), tf32x3 where the tensor cores win, split-K for small m*n with large k,
// simt elsewhere; tf32x3 only where `tensor_cores`). Float rule; double ignores tf32x3.
Family choose(std::int64_t m, std::int64_t n, std::int64_t k, std::int64_t batch, bool tensor_cores = true);

extern template void run<float>(Family, void*, bool, bool, std::int64_t, std::int64_t, std::int64_t, float,
                                const float*, std::int64_t, std::int64_t, const float*, std::int64_t, std::int64_t,
                                float, float*, std::int64_t, std::int64_t, std::int64_t);
extern template void run<double>(Family, void*, bool, bool, std::int64_t, std::int64_t, std::int64_t, double,
                                 const double*, std::int64_t, std::int64_t, const double*, std::int64_t,
                                 std::int64_t, double, double*, std::int64_t, std::int64_t, std::int64_t);

}  // namespace portkern::gemm_impl::cuda_native
