// Internal (benchmark / test) access to the individual instantiations behind cuda_native::run. Plain C++.
#pragma once

#include <cstdint>

namespace portkern::gemm_impl::cuda_native::detail {

// Variants of type T (float: is_double = false). Names are short config tags (see cuda_gemm.cu).
int variant_count(bool is_double);
const char* variant_name(bool is_double, int i);

// Runs variant i; splits: 0 = automatic split-K, 1 = no split, > 1 = that many k slices.
template <class T>
void run_variant(int i, int splits, void* stream, bool trans_a, bool trans_b, std::int64_t m, std::int64_t n,
                 std::int64_t k, T alpha, const T* a, std::int64_t lda, std::int64_t stride_a, const T* b,
                 std::int64_t ldb, std::int64_t stride_b, T beta, T* c, std::int64_t ldc, std::int64_t stride_c,
                 std::int64_t batch);

// The variant and split count that run(Family, ...) would use (for reporting). Returns the variant index.
int chosen_variant(int family, bool is_double, std::int64_t m, std::int64_t n, std::int64_t k,
                   std::int64_t batch, int* splits);

}  // namespace portkern::gemm_impl::cuda_native::detail
