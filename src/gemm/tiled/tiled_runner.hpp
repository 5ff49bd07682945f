// Runs a `tiled` configuration by name on one back end: the names a deployment lists are parsed at compile
// time into TiledConfig values, and each becomes four kernels (one per transpose combination).
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <type_traits>

#include "common/config_names.hpp"
#include "gemm/scale.hpp"
#include "gemm/tiled/ladder.hpp"
#include "gemm/tiled/staged.hpp"
#include "gemm/tiled/tiled.hpp"
#include "portkern/error.hpp"
#include "portkern/runtime/queue.hpp"

namespace portkern::gemm_impl {

// Calls launch.template operator()<P>() for the configuration of `names` called `config`; false if none is.
template <const auto& names, class Launch>
bool with_tiled_config(std::string_view config, Launch&& launch) {
  return config_names::with_instantiated<names>(
      config, [&]<std::size_t I>() { launch.template operator()<parse_tiled(names[I])>(); });
}

// The kernel of configuration P: GemmStaged in the staged mode, GemmTiled otherwise.
template <TiledConfig P, class T, bool TransA, bool TransB>
using TiledKernel = std::conditional_t<P.memory == TiledMemory::staged, GemmStaged<P, T, TransA, TransB>,
                                       GemmTiled<P, T, TransA, TransB>>;

// Launches the kernel of P through `launch_kernel(kernel)` for the run-time transposes.
template <TiledConfig P, class T, class LaunchKernel>
void launch_tiled(bool trans_a, bool trans_b, const GemmArgs<T>& args, LaunchKernel&& launch_kernel) {
  if (trans_a) {
    if (trans_b) return launch_kernel(TiledKernel<P, T, true, true>{args});
    return launch_kernel(TiledKernel<P, T, true, false>{args});
  }
  if (trans_b) return launch_kernel(TiledKernel<P, T, false, true>{args});
  launch_kernel(TiledKernel<P, T, false, false>{args});
}

// Launches a kernel of the family on a back end (kernel::cpu::Backend or kernel::cuda::Backend) whose device
// runs `resident` groups of it at once: a staged kernel splits k where its blocks alone would leave the device
// idle (GemmStaged::planned), after a first pass C = beta * C, since the splits add into C.
template <class Backend, class Kernel>
void launch_gemm(const Queue& queue, const Kernel& kernel, std::int64_t resident) {
  if constexpr (Kernel::config.memory == TiledMemory::staged) {
    using T = typename Kernel::Block::value_type;
    const Kernel planned = Kernel::planned(kernel.args, resident);
    const GemmArgs<T>& p = planned.args;
    if (planned.accumulates() && p.beta != T(1)) {
      const ScaleMatrix<T> scale{p.m, p.n, p.beta, p.c, p.ldc, p.stride_c};
      Backend::launch(queue, scale.groups(p.batch), scale);
    }
    Backend::launch(queue, planned.groups(p), planned);
  } else {
    Backend::launch(queue, kernel.groups(kernel.args), kernel);
  }
}

[[noreturn]] inline void tiled_config_missing(std::string_view config, std::string_view device_class) {
  fail("portkern::gemm", "configuration '" + std::string(config) + "' is not instantiated for " +
                             std::string(device_class) + " in this build (see deploy/" + std::string(device_class) +
                             "/gemm.hpp)");
}

// The lookup both back ends make: the deployment's configurations, then the optimisation ladder's steps (every
// transpose combination and precision: the ladder's last step is the model's fragment path, tested like a
// deployment), then — for float, in a tuning build — the part of the space it instantiates.
// `launch_kernel(kernel)` launches one kernel on the back end; `tuning(config, trans_a, trans_b, float_args)` is
// the tuning build's lookup (false when it has no such configuration).
template <class Deployment, bool Cpu, class T, class LaunchKernel, class Tuning>
void run_tiled(std::string_view config, bool trans_a, bool trans_b, const GemmArgs<T>& args,
               LaunchKernel&& launch_kernel, Tuning&& tuning) {
  auto launch = [&]<TiledConfig P>() { launch_tiled<P, T>(trans_a, trans_b, args, launch_kernel); };
  if (with_tiled_config<Deployment::tiled>(config, launch)) return;
  if constexpr (Cpu) {
    if (with_tiled_config<ladder_cpu_configs>(config, launch)) return;
  } else {
    if (with_tiled_config<ladder_cuda_configs>(config, launch)) return;
  }
  if constexpr (std::is_same_v<T, float>)
    if (tuning(config, trans_a, trans_b, args)) return;
  tiled_config_missing(config, Deployment::device_class);
}

template <class T>
void run_tiled_cpu(const Queue& queue, std::string_view config, bool trans_a, bool trans_b, const GemmArgs<T>& args);
template <class T>
void run_tiled_cuda(const Queue& queue, std::string_view config, bool trans_a, bool trans_b, const GemmArgs<T>& args);

}  // namespace portkern::gemm_impl
