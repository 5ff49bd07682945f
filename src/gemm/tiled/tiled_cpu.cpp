// The deployed `tiled` configurations, instantiated for the CPU.
#include "gemm/deployment.hpp"
#include "gemm/tiled/tiled_runner.hpp"
#if PORTKERN_TUNING
#include "gemm/tiled/tiled_tuning.hpp"
#endif
#include "portkern/kernel/cpu.hpp"

namespace portkern::gemm_impl {

template <class T>
void run_tiled_cpu(const Queue& queue, std::string_view config, bool trans_a, bool trans_b, const GemmArgs<T>& args) {
  run_tiled<CpuTiledConfigs, true>(
      config, trans_a, trans_b, args,
      [&](const auto& kernel) { launch_gemm<kernel::cpu::Backend>(queue, kernel, queue.cpu_threads()); },
      [&](std::string_view name, bool ta, bool tb, const auto& float_args) {
#if PORTKERN_TUNING
        return tuning::run_tiled_cpu(name, queue, ta, tb, float_args);
#else
        (void)name, (void)ta, (void)tb, (void)float_args;
        return false;
#endif
      });
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
