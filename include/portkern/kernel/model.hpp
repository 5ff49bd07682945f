// The single-source kernel model: a kernel is written once, as a C++ function object over a *group*, and
// runs on CUDA (a group is a thread block) and on the CPU (a group is a loop nest on one OpenMP thread).
//
//   struct MyKernel {
//     using group_shape = portkern::kernel::Shape<32, 8>;       // items per group, compile time
//     /* arguments as members */
//     template <class Group> PORTKERN_KERNEL void operator()(Group& g) const {
//       auto& tile = g.template local<float[32][33], 0>();      // group-local memory, id 0
//       portkern::kernel::private_array<float, 4, Group> acc;   // 4 floats per item (private_array.hpp)
//       g.for_each_item([&](auto item) { acc(item, 0) = tile[item.y][item.x]; });   // a phase
//       g.barrier();                                            // between phases
//     }
//   };
//   // in a .cpp (cpu.hpp); a .cu launches the same kernel with portkern::kernel::cuda::launch (cuda.cuh):
//   portkern::kernel::cpu::launch(queue, portkern::kernel::Range{groups_x, groups_y}, MyKernel{...});
//
// The contract that makes one source correct on both back ends:
// - Work happens in phases, each a g.for_each_item(f) (or g.for_each_item_below(count, f): only the items
//   whose x is below a uniform count, where a group runs past the end of its data); items of one phase may
//   only communicate through group-local memory after a g.barrier(). Code outside for_each_item runs once
//   per group on the CPU and once per item on CUDA, so it must be uniform (same value for every item): loop
//   bounds, pointers.
// - Per-item state that lives across phases is a private_array, indexed by the item.
// - local<T, Id>(): Id gives each group-local allocation its identity (two tiles of one type are distinct).
// - Everything the kernel is tuned over is a compile-time parameter of the kernel type.
// - A kernel whose groups share nothing (no barrier, no group-local memory, one-dimensional shape) may declare
//   `static constexpr int packed_groups = N;`: CUDA then runs N consecutive groups along x in one thread block,
//   so that small groups (a warp or two) do not leave a multiprocessor's block slots the limit on its threads
//   (32 blocks of 32 threads fill half an H100 SM); the CPU ignores it. A barrier or local() in such a kernel
//   does not compile on CUDA.
// - A kernel may declare `static constexpr int resident_groups = N;`: CUDA compiles it for N groups resident on a
//   multiprocessor at once (registers capped at 65536 / (N x items) an item; above the cap they spill); the CPU
//   ignores it. Without it the compiler may take up to 255 registers an item, which can leave a multiprocessor
//   one group of a large kernel.
#pragma once

#include <cstdint>
#include <cstring>

// PORTKERN_KERNEL marks a kernel's operator(), PORTKERN_INLINE any function it calls, PORTKERN_UNROLL a loop
// with a compile-time trip count to unroll fully (which keeps register arrays in registers on CUDA).
#if defined(__CUDACC__)
#define PORTKERN_KERNEL __host__ __device__ __forceinline__
#define PORTKERN_INLINE __host__ __device__ __forceinline__
#else
#define PORTKERN_KERNEL inline __attribute__((always_inline))
#define PORTKERN_INLINE inline __attribute__((always_inline))
#endif
#if defined(__CUDA_ARCH__)
#define PORTKERN_UNROLL _Pragma("unroll")
#elif defined(__CUDACC__)
#define PORTKERN_UNROLL   // the host pass of a .cu file: CPU code is built from .cpp files, not here
#else
#define PORTKERN_UNROLL _Pragma("GCC unroll 64")
#endif
// PORTKERN_LANES marks a loop over the N lanes of one item's vec<T, N>: on the CPU an OpenMP simd loop, one
// SIMD instruction per statement, calls to exp/tanh/... through their vector variants (portkern/kernel/
// math.hpp; without the pragma GCC unrolls such a loop fully and calls the scalar functions N times); on
// CUDA unrolled like PORTKERN_UNROLL. It is the CPU's other way to fill SIMD lanes, beside items as lanes:
// where one item's work is a vector that a back end converts natively (to_float of a vec<half, N>).
#if defined(__CUDA_ARCH__)
#define PORTKERN_LANES _Pragma("unroll")
#elif defined(__CUDACC__)
#define PORTKERN_LANES
#elif defined(_OPENMP)
#define PORTKERN_LANES _Pragma("omp simd")
#else
#define PORTKERN_LANES _Pragma("GCC ivdep")
#endif

namespace portkern::kernel {

// Items per group, in up to three dimensions, known at compile time.
template <int X, int Y = 1, int Z = 1>
struct Shape {
  static_assert(X >= 1 && Y >= 1 && Z >= 1, "a group has at least one item in each dimension");
  static constexpr int x = X, y = Y, z = Z, size = X * Y * Z;
};

// The number of groups in each dimension, known at run time.
struct Range {
  std::int64_t x = 1, y = 1, z = 1;
  std::int64_t size() const { return x * y * z; }
};

// One item of a group: its position in the group and its linear index (x fastest).
struct Item {
  int x, y, z, linear;
};

// N values of T, loaded and stored as one aligned vector access (16-byte loads on CUDA for float4; SIMD
// registers on the CPU). The pointer must be aligned to the vector size.
template <class T, int N>
struct alignas(sizeof(T) * N) vec {
  static_assert((N & (N - 1)) == 0, "vector width must be a power of two");
  T v[N];

  // On the CPU element by element: within a vectorised item loop each element is then a plain (or gathered)
  // access of T that the vectoriser can combine across the items; a byte copy of the whole vector, or a
  // pointer through __builtin_assume_aligned, hides the address from it.
  PORTKERN_INLINE static vec load(const T* p) {
#if defined(__CUDA_ARCH__)
    return *reinterpret_cast<const vec*>(p);
#else
    vec r;
    PORTKERN_UNROLL
    for (int i = 0; i < N; ++i) r.v[i] = p[i];
    return r;
#endif
  }
  PORTKERN_INLINE void store(T* p) const {
#if defined(__CUDA_ARCH__)
    *reinterpret_cast<vec*>(p) = *this;
#else
    PORTKERN_UNROLL
    for (int i = 0; i < N; ++i) p[i] = v[i];
#endif
  }
  PORTKERN_INLINE T& operator[](int i) { return v[i]; }
  PORTKERN_INLINE const T& operator[](int i) const { return v[i]; }
};

}  // namespace portkern::kernel
