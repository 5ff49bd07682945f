// The DNN operators of seed 004 (HeCBench's 20, ORNL report): each written once in the kernel model and run on
// the CPU and on CUDA. One header per operator; this one includes them all.
// Threads: every operator may be called by any number of threads with one shared queue or their own
// (runtime/queue.hpp, docs/threading.md); they keep no state between calls (workspaces are the caller's).
// Tensor sizes whose products do not fit in 64 bits are portkern::Error naming the quantity.
#pragma once

#include "portkern/ops/accuracy.hpp"
#include "portkern/ops/adam.hpp"
#include "portkern/ops/attention.hpp"
#include "portkern/ops/channel_shuffle.hpp"
#include "portkern/ops/channel_sum.hpp"
#include "portkern/ops/clink.hpp"
#include "portkern/ops/concat.hpp"
#include "portkern/ops/cross_entropy.hpp"
#include "portkern/ops/dense_embedding.hpp"
#include "portkern/ops/dwconv.hpp"
#include "portkern/ops/expdist.hpp"
#include "portkern/ops/flip.hpp"
#include "portkern/ops/gd.hpp"
#include "portkern/ops/gelu.hpp"
#include "portkern/ops/glu.hpp"
#include "portkern/ops/logprob.hpp"
#include "portkern/ops/mask.hpp"
#include "portkern/ops/maxpool3d.hpp"
#include "portkern/ops/meanshift.hpp"
#include "portkern/ops/multinomial.hpp"
