// Every kernel-model kernel of the convolution and pooling, listed once: each back end's file instantiates
// the list, so the two back ends cannot drift apart.
#pragma once

#include <string_view>
#include <utility>

#include "conv2d/deployment.hpp"
#include "conv2d/direct.hpp"
#include "conv2d/epilogue.hpp"
#include "conv2d/im2col.hpp"
#include "conv2d/pool.hpp"
#include "conv2d/tiled.hpp"
#include "conv2d/winograd.hpp"

#define PORTKERN_CONV2D_KERNELS(X)                                                                        \
  X(Conv2dDirect<64>)                                                                                     \
  X(BiasRelu)                                                                                             \
  X(Im2col)                                                                                               \
  X(WinogradInput<2>)                                                                                     \
  X(WinogradInput<4>)                                                                                     \
  X(WinogradFilterTransform<2>)                                                                           \
  X(WinogradFilterTransform<4>)                                                                           \
  X(WinogradOutput<2>)                                                                                    \
  X(WinogradOutput<4>)                                                                                    \
  X(Pool2d<true>)                                                                                         \
  X(Pool2d<false>)

namespace portkern::conv2d_impl {

// Calls launch(Conv2dTiled<P>{...}) for the deployed configuration named `config`; false if none is.
template <class Launch>
bool with_tiled_conv(std::string_view config, const ConvArgs& args, bool vector_c, bool vector_k, Launch&& launch) {
  return [&]<std::size_t... I>(std::index_sequence<I...>) {
    bool found = false;
    ((!found && config == tiled_deployed[I]
          ? (launch(Conv2dTiled<parse_tiled_conv(tiled_deployed[I])>{args, vector_c, vector_k}), found = true)
          : false),
     ...);
    return found;
  }(std::make_index_sequence<tiled_deployed.size()>{});
}

}  // namespace portkern::conv2d_impl
