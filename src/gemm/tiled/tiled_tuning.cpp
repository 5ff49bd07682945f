// The tuning build's lookup of a tiled configuration by name across the generated shards.
#include "gemm/tiled/tiled_tuning.hpp"

namespace portkern::gemm_impl::tuning {

namespace {
template <class Run>
bool over_shards(std::string_view name, Run&& run) {
  bool ok = false;
  const TiledConfig config = parse_tiled(name, &ok);
  if (!ok) return false;
  return [&]<int... S>(std::integer_sequence<int, S...>) {
    return (run.template operator()<S>(config) || ...);
  }(std::make_integer_sequence<int, PORTKERN_TUNING_SHARDS>{});
}
}  // namespace

bool run_tiled_cpu(std::string_view name, const Queue& queue, bool ta, bool tb, const GemmArgs<float>& args) {
  return over_shards(name, [&]<int S>(const TiledConfig& c) { return run_tiled_cpu_shard<S>(c, queue, ta, tb, args); });
}

bool run_tiled_cuda(std::string_view name, const Queue& queue, bool ta, bool tb, const GemmArgs<float>& args) {
#if PORTKERN_HAVE_CUDA
  return over_shards(name, [&]<int S>(const TiledConfig& c) { return run_tiled_cuda_shard<S>(c, queue, ta, tb, args); });
#else
  (void)name, (void)queue, (void)ta, (void)tb, (void)args;
  return false;
#endif
}

}  // namespace portkern::gemm_impl::tuning
