// CUDA's tensor-core atom for fp32-accurate products, used by the kernel model's fragments
// (fragment.cuh, the 3xTF32 and TF32 paths) and by the native 3xTF32 GEMM (src/gemm/cuda_native/cuda_tf32x3.cuh).
//
// 3xTF32: each fp32 operand is split in registers as x = big + small, big = tf32(x), small = tf32(x - big),
// and a*b is formed as a_small*b_big + a_big*b_small + a_big*b_big (small terms first into the fp32
// accumulator) with mma.sync.m16n8k8.row.col.f32.tf32.tf32.f32. The dropped a_small*b_small term and the
// rounding of the small parts are ~2^-22 relative per product: fp32 accuracy at the tensor cores' rate.
// The tensor core's accumulation truncates, so callers add short partial sums (one k-tile) into their
// accumulators with ordinary round-to-nearest additions.
//
// mma_tf32's fragments (g = lane / 4, t = lane % 4): A (16 x 8, row-major) a[0] = A(g, t), a[1] = A(g + 8, t),
// a[2] = A(g, t + 4), a[3] = A(g + 8, t + 4); B (8 x 8) b0 = B(t, g), b1 = B(t + 4, g); C (16 x 8)
// c[0] = C(g, 2t), c[1] = C(g, 2t + 1), c[2] = C(g + 8, 2t), c[3] = C(g + 8, 2t + 1).
#pragma once

namespace portkern::kernel::cuda::atoms {

// x = big + small, both tf32, rounded to nearest with ties away from zero: the bit pattern plus half a tf32
// ulp (0x1000), low 13 bits cleared. This is cvt.rna.tf32.f32 without its Inf/NaN guard (which cost ~5 more
// instructions per element); for `small` the mask is left out too, since the tensor core ignores the low 13
// bits of a tf32 operand (the compiler emits the same for cvt.rna feeding only an mma). Inf or NaN inputs
// give NaN (x - big), never a silently finite result; so do finite inputs within half a tf32 ulp of FLT_MAX
// (|x| >= 3.40199e38: rounding carries big to Inf). Guarding both (an exponent test and two selects per
// element) was measured on the H100: large squares fell from 1.04 to 0.79 of cuBLAS, so the guard is left
// out and the deviation documented (docs/gemm-cuda.md; the test requires a non-finite result there).
__device__ __forceinline__ void split_tf32(float x, unsigned& big, unsigned& small) {
  big = (__float_as_uint(x) + 0x1000u) & 0xffffe000u;
  const float r = x - __uint_as_float(big);
  small = __float_as_uint(r) + 0x1000u;
}
// x rounded to TF32 (nearest, ties away from zero) by cvt.rna.tf32.f32, which keeps Inf and NaN: the TF32
// path's operands (one product per atom, fp32 accumulation, as cuBLAS's CUBLAS_COMPUTE_32F_FAST_TF32).
__device__ __forceinline__ unsigned to_tf32(float x) {
  unsigned t;
  asm("cvt.rna.tf32.f32 %0, %1;\n" : "=r"(t) : "f"(x));
  return t;
}
__device__ __forceinline__ void mma_tf32(float (&c)[4], const unsigned (&a)[4], unsigned b0, unsigned b1) {
  asm("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
      "{%0,%1,%2,%3};\n"
      : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

}  // namespace portkern::kernel::cuda::atoms
