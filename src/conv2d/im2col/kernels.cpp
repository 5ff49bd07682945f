// The `im2col` algorithm's patch kernel for the CPU back end.
#include "conv2d/im2col/im2col.hpp"
#include "conv2d/launchable.hpp"

PORTKERN_CONV2D_LAUNCHABLE(portkern::conv2d_impl::Im2col)
