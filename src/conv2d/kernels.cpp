// The kernels every algorithm shares (the GEMM-based algorithms' epilogue) and pooling, for the CPU back end.
#include "conv2d/epilogue.hpp"
#include "conv2d/launchable.hpp"
#include "conv2d/pool.hpp"

PORTKERN_CONV2D_LAUNCHABLE(portkern::conv2d_impl::BiasRelu)
PORTKERN_CONV2D_LAUNCHABLE(portkern::conv2d_impl::Pool2d<true>)
PORTKERN_CONV2D_LAUNCHABLE(portkern::conv2d_impl::Pool2d<false>)
