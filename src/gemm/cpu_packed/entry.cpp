// The `cpu_packed` family's registry entry (registry.hpp): one configuration, "default" — its block sizes are
// data of the CPU's device class (cpu_packed.hpp), not choices a deployment makes. Runs on the CPU only.
#include "gemm/cpu_packed/cpu_packed.hpp"
#include "gemm/registry.hpp"

namespace portkern::gemm_impl {

namespace {

constexpr std::string_view family = "cpu_packed";

const std::vector<std::string>& cpu_packed_space() {
  static const std::vector<std::string> names = {std::string(family) + "/default"};
  return names;
}

bool in_cpu_packed_space(std::string_view config) { return config == cpu_packed_space().front(); }

template <class T>
void run_cpu_packed(Queue& queue, std::string_view, bool ta, bool tb, const GemmArgs<T>& p) {
  cpu_packed::run(ta, tb, p.m, p.n, p.k, p.alpha, p.a, p.lda, p.stride_a, p.b, p.ldb, p.stride_b, p.beta, p.c, p.ldc,
                  p.stride_c, p.batch, queue.cpu_threads(), p.epilogue);
}

}  // namespace

extern const FamilyEntry cpu_packed_entry;
const FamilyEntry cpu_packed_entry{family,
                                   [](const Device& d) { return d.is_cpu(); },
                                   cpu_packed_space,
                                   [](const Device&) { return cpu_packed_space(); },
                                   in_cpu_packed_space,
                                   nullptr,
                                   nullptr,
                                   run_cpu_packed<float>,
                                   run_cpu_packed<double>,
                                   true};

}  // namespace portkern::gemm_impl
