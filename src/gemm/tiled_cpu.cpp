// The deployed `tiled` configurations, instantiated for the CPU.
#include <type_traits>

#include "gemm/deployment.hpp"
#include "gemm/ladder.hpp"
#include "gemm/tiled_runner.hpp"
#if PORTKERN_TUNING
#include "gemm/tiled_tuning.hpp"
#endif
#include "portkern/kernel/cpu.hpp"

namespace portkern::gemm_impl {

template <class T>
void run_tiled_cpu(const Queue& queue, std::string_view config, bool trans_a, bool trans_b, const GemmArgs<T>& args) {
  const bool found = with_tiled_config<CpuDeployment::tiled>(config, [&]<TiledConfig P>() {
    launch_tiled<P, T>(trans_a, trans_b, args, [&](const auto& kernel) {
      kernel::cpu::launch(queue, kernel.groups(args), kernel);
    });
  });
  if (found) return;
  if constexpr (std::is_same_v<T, float>) {   // the optimisation ladder's steps (float, no transposes)
    if (!trans_a && !trans_b && with_tiled_config<ladder_configs>(config, [&]<TiledConfig P>() {
          const GemmTiled<P, float, false, false> kernel{args};
          kernel::cpu::launch(queue, kernel.groups(args), kernel);
        }))
      return;
  }
#if PORTKERN_TUNING
  if constexpr (std::is_same_v<T, float>)
    if (!trans_a && !trans_b && tuning::run_tiled_cpu(config, queue, args)) return;
#endif
  tiled_config_missing(config, CpuDeployment::device_class);
}

template void run_tiled_cpu<float>(const Queue&, std::string_view, bool, bool, const GemmArgs<float>&);
template void run_tiled_cpu<double>(const Queue&, std::string_view, bool, bool, const GemmArgs<double>&);

}  // namespace portkern::gemm_impl

#include "gemm/scale.hpp"

namespace portkern::gemm_impl {

template <class T>
void scale_cpu(const Queue& queue, const ScaleMatrix<T>& kernel, std::int64_t batch) {
  kernel::cpu::launch(queue, kernel.groups(batch), kernel);
}
template void scale_cpu<float>(const Queue&, const ScaleMatrix<float>&, std::int64_t);
template void scale_cpu<double>(const Queue&, const ScaleMatrix<double>&, std::int64_t);

}  // namespace portkern::gemm_impl
