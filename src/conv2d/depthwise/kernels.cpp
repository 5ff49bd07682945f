// The `depthwise` algorithm's kernels: the CPU's rows (launched by launch_cpu, compiled for the CPU only) and
// CUDA's segments.
#include "conv2d/depthwise/depthwise.hpp"
#include "conv2d/launchable.hpp"

PORTKERN_CONV2D_LAUNCHABLE(portkern::conv2d_impl::Conv2dDepthwise<8, false>)
PORTKERN_CONV2D_LAUNCHABLE(portkern::conv2d_impl::Conv2dDepthwise<16, false>)
PORTKERN_CONV2D_LAUNCHABLE(portkern::conv2d_impl::Conv2dDepthwise<32, false>)
PORTKERN_CONV2D_LAUNCHABLE(portkern::conv2d_impl::Conv2dDepthwise<64, false>)
PORTKERN_CONV2D_LAUNCHABLE(portkern::conv2d_impl::Conv2dDepthwise<8, false, false, 4>)
PORTKERN_CONV2D_LAUNCHABLE(portkern::conv2d_impl::Conv2dDepthwise<16, false, false, 4>)
PORTKERN_CONV2D_LAUNCHABLE(portkern::conv2d_impl::Conv2dDepthwise<32, false, false, 4>)
PORTKERN_CONV2D_LAUNCHABLE(portkern::conv2d_impl::Conv2dDepthwise<64, false, false, 4>)
PORTKERN_CONV2D_LAUNCHABLE(portkern::conv2d_impl::Conv2dDepthwise<8, false, false, 1, 0, 4>)
PORTKERN_CONV2D_LAUNCHABLE(portkern::conv2d_impl::Conv2dDepthwise<16, false, false, 1, 0, 4>)
PORTKERN_CONV2D_LAUNCHABLE(portkern::conv2d_impl::Conv2dDepthwise<32, false, false, 1, 0, 4>)
PORTKERN_CONV2D_LAUNCHABLE(portkern::conv2d_impl::Conv2dDepthwise<64, false, false, 1, 0, 4>)
PORTKERN_CONV2D_LAUNCHABLE(portkern::conv2d_impl::Conv2dDepthwise<8, false, false, 1, 0, 2>)
PORTKERN_CONV2D_LAUNCHABLE(portkern::conv2d_impl::Conv2dDepthwise<16, false, false, 1, 0, 2>)
PORTKERN_CONV2D_LAUNCHABLE(portkern::conv2d_impl::Conv2dDepthwise<32, false, false, 1, 0, 2>)
PORTKERN_CONV2D_LAUNCHABLE(portkern::conv2d_impl::Conv2dDepthwise<64, false, false, 1, 0, 2>)

#if !defined(__CUDACC__)
PORTKERN_CONV2D_LAUNCHABLE(portkern::conv2d_impl::Conv2dDepthwise<16, true>)
PORTKERN_CONV2D_LAUNCHABLE(portkern::conv2d_impl::Conv2dDepthwise<24, true>)
PORTKERN_CONV2D_LAUNCHABLE(portkern::conv2d_impl::Conv2dDepthwise<32, true>)
PORTKERN_CONV2D_LAUNCHABLE(portkern::conv2d_impl::Conv2dDepthwise<40, true>)
PORTKERN_CONV2D_LAUNCHABLE(portkern::conv2d_impl::Conv2dDepthwise<48, true>)
PORTKERN_CONV2D_LAUNCHABLE(portkern::conv2d_impl::Conv2dDepthwise<56, true>)
PORTKERN_CONV2D_LAUNCHABLE(portkern::conv2d_impl::Conv2dDepthwise<64, true>)
#endif
