// portkern: performance-portable compute kernels for x86-64 CPUs and NVIDIA GPUs. The whole public API.
#pragma once

#include "portkern/blas.hpp"
#include "portkern/dnn.hpp"
#include "portkern/error.hpp"
#include "portkern/gemm_packed.hpp"
#include "portkern/net.hpp"
#include "portkern/ops.hpp"
#include "portkern/runtime/buffer.hpp"
#include "portkern/runtime/device.hpp"
#include "portkern/runtime/device_class.hpp"
#include "portkern/runtime/queue.hpp"
#include "portkern/runtime/timer.hpp"
#include "portkern/transpose.hpp"
