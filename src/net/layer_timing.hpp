// How long a prepared layer call takes, for the timed pick (library_engine's LayerPick::timed).
//
// A layer inside a pass finds its input in cache (the layer before it has just written it) but not its
// weights: a pass streams tens of MB of them, far more than the cores' private caches. Timing a call
// repeatedly on the same buffers keeps the weights in L2 instead, and favours configurations whose
// transformed weights are large (Winograd F(4x4) against F(2x2), for instance). On the CPU each sample
// therefore first evicts the private caches of every thread of the queue, then reads the input (and the
// residual) back in, and times one call; on a GPU calls are timed back to back.
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <span>

#include "portkern/runtime/queue.hpp"

namespace portkern::net_impl {

// The best time in ms of a few samples of `call` as a pass would run it; `warm` are the buffers the
// layer before it leaves in cache.
double in_pass_time_ms(Queue& q, const std::function<void()>& call,
                       std::initializer_list<std::span<const float>> warm);

}  // namespace portkern::net_impl
