// The `grouped` algorithm's kernel for the CPU back end.
#include "conv2d/depthwise/depthwise.hpp"
#include "conv2d/launchable.hpp"

PORTKERN_CONV2D_LAUNCHABLE(portkern::conv2d_impl::Conv2dDepthwise<64, true, true>)
PORTKERN_CONV2D_LAUNCHABLE(portkern::conv2d_impl::Conv2dDepthwise<32, true, true>)
PORTKERN_CONV2D_LAUNCHABLE(portkern::conv2d_impl::Conv2dDepthwise<16, true, true>)
PORTKERN_CONV2D_LAUNCHABLE(portkern::conv2d_impl::Conv2dDepthwise<64, false, true>)

#if !defined(__CUDACC__)   // the block-diagonal modes, launched by launch_cpu
#include "portkern/kernel/cpu/diagonal_fragment.hpp"
#if PORTKERN_CPU_VECTOR_BYTES >= 32   // groups of 8 channels in one vector
#define PORTKERN_GROUPED_BLOCK_8(items) \
  PORTKERN_CONV2D_LAUNCHABLE(portkern::conv2d_impl::Conv2dDepthwise<items, true, true, 1, 8>)
#else
#define PORTKERN_GROUPED_BLOCK_8(items)
#endif
#define PORTKERN_GROUPED_BLOCKS(items)                                                       \
  PORTKERN_CONV2D_LAUNCHABLE(portkern::conv2d_impl::Conv2dDepthwise<items, true, true, 1, 2>) \
  PORTKERN_CONV2D_LAUNCHABLE(portkern::conv2d_impl::Conv2dDepthwise<items, true, true, 1, 4>) \
  PORTKERN_GROUPED_BLOCK_8(items)
PORTKERN_GROUPED_BLOCKS(16)
PORTKERN_GROUPED_BLOCKS(24)
PORTKERN_GROUPED_BLOCKS(32)
PORTKERN_GROUPED_BLOCKS(40)
PORTKERN_GROUPED_BLOCKS(48)
PORTKERN_GROUPED_BLOCKS(56)
PORTKERN_GROUPED_BLOCKS(64)
// groups of 16 and 32 channels: blocks of whole groups (grouped/entry.cpp)
PORTKERN_CONV2D_LAUNCHABLE(portkern::conv2d_impl::Conv2dDepthwise<16, true, true, 1, 16>)
PORTKERN_CONV2D_LAUNCHABLE(portkern::conv2d_impl::Conv2dDepthwise<32, true, true, 1, 16>)
PORTKERN_CONV2D_LAUNCHABLE(portkern::conv2d_impl::Conv2dDepthwise<48, true, true, 1, 16>)
PORTKERN_CONV2D_LAUNCHABLE(portkern::conv2d_impl::Conv2dDepthwise<64, true, true, 1, 16>)
PORTKERN_CONV2D_LAUNCHABLE(portkern::conv2d_impl::Conv2dDepthwise<32, true, true, 1, 32>)
PORTKERN_CONV2D_LAUNCHABLE(portkern::conv2d_impl::Conv2dDepthwise<64, true, true, 1, 32>)
#endif
