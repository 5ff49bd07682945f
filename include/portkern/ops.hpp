// The DNN operators of seed 004 (HeCBench's 20, ORNL report): each written once in the kernel model and run on
// the CPU and on CUDA. One header per operator; this one includes them all.
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
