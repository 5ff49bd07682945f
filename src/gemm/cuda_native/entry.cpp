// The `cuda_native` family's registry entry (registry.hpp), compiled in CUDA builds only: the native CUDA
// kernels of cuda_gemm.hpp, one configuration per kernel plus "auto" (cuda_native::choose's hand-written cost
// model picks the kernel from the shape; at the ieee precision never tf32x3). tf32x3 is float only: a double
// problem runs simt.
#include <array>

#include "gemm/cuda_native/cuda_gemm.hpp"
#include "gemm/registry.hpp"

namespace portkern::gemm_impl {

namespace {

using cuda_native::Family;

constexpr std::string_view family = "cuda_native";

struct Kernel {
  std::string_view name;
  Family kernel;
  bool automatic;
};
constexpr std::array<Kernel, 5> kernels = {{{"auto", Family::simt, true},
                                            {"simt", Family::simt, false},
                                            {"splitk", Family::splitk, false},
                                            {"tf32x3", Family::tf32x3, false},
                                            {"smallk", Family::smallk, false}}};

const std::vector<std::string>& cuda_native_space() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> all;
    for (const Kernel& k : kernels) all.push_back(std::string(family) + "/" + std::string(k.name));
    return all;
  }();
  return names;
}

const Kernel* kernel_of(std::string_view config) {
  const auto& names = cuda_native_space();
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] == config) return &kernels[i];
  return nullptr;
}

bool in_cuda_native_space(std::string_view config) { return kernel_of(config) != nullptr; }

Arithmetic cuda_native_arithmetic(std::string_view config, Precision precision) {
  const Kernel& k = *kernel_of(config);
  const bool tensor_cores = k.kernel == Family::tf32x3 || (k.automatic && precision != Precision::ieee);
  return tensor_cores ? Arithmetic::tf32x3 : Arithmetic::ieee;
}

template <class T>
void run_cuda_native(Queue& queue, std::string_view config, bool ta, bool tb, const GemmArgs<T>& p) {
  const Kernel& k = *kernel_of(config);   // the API checked the name against the space
  const Family kernel = k.automatic ? cuda_native::choose(p.m, p.n, p.k, p.batch, p.precision != Precision::ieee)
                                    : k.kernel;
  cuda_native::run(kernel, queue.native_stream(), ta, tb, p.m, p.n, p.k, p.alpha, p.a, p.lda, p.stride_a, p.b, p.ldb,
                   p.stride_b, p.beta, p.c, p.ldc, p.stride_c, p.batch);
}

}  // namespace

extern const FamilyEntry cuda_native_entry;
const FamilyEntry cuda_native_entry{family,
                                    [](const Device& d) { return d.is_cuda(); },
                                    cuda_native_space,
                                    [](const Device&) { return cuda_native_space(); },
                                    in_cuda_native_space,
                                    nullptr,
                                    cuda_native_arithmetic,
                                    run_cuda_native<float>,
                                    run_cuda_native<double>,
                                    false};

}  // namespace portkern::gemm_impl
