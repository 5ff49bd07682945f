// The `winograd` algorithm's transforms for the CPU back end.
#include "conv2d/launchable.hpp"
#include "conv2d/winograd/winograd.hpp"

PORTKERN_CONV2D_LAUNCHABLE(portkern::conv2d_impl::WinogradInput<2>)
PORTKERN_CONV2D_LAUNCHABLE(portkern::conv2d_impl::WinogradInput<4>)
PORTKERN_CONV2D_LAUNCHABLE(portkern::conv2d_impl::WinogradFilterTransform<2>)
PORTKERN_CONV2D_LAUNCHABLE(portkern::conv2d_impl::WinogradFilterTransform<4>)
PORTKERN_CONV2D_LAUNCHABLE(portkern::conv2d_impl::WinogradOutput<2>)
PORTKERN_CONV2D_LAUNCHABLE(portkern::conv2d_impl::WinogradOutput<4>)
