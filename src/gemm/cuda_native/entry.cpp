// The `cuda_native` family's registry entry (registry.hpp), compiled in CUDA builds only: the native CUDA
// kernels of cuda_gemm.hpp, one configuration per kernel; "wgmma_x3" and "wgmma_tf32", the cuda_wgmma pipeline
// on sm_90 multiplying as 3xTF32 or as TF32; and "auto" (cuda_native::choose's hand-written cost model picks the
// kernel from the shape; at the ieee precision never the tensor cores; where it picks tf32x3 on sm_90 and the
// wgmma pipeline's cost model says it finishes first, wgmma_x3). tf32x3 and the wgmma ones are float only: a
// double problem runs simt.
#include <array>
#include <type_traits>

#include "gemm/cuda_native/cuda_gemm.hpp"
#include "gemm/cuda_wgmma/wgmma_gemm.hpp"
#include "gemm/registry.hpp"

namespace portkern::gemm_impl {

namespace {

using cuda_native::Family;

constexpr std::string_view family = "cuda_native";

// How a configuration multiplies floats: Family's kernels, or the wgmma pipeline as 3xTF32 or TF32.
enum class Wgmma { none, x3, tf32 };

struct Kernel {
  std::string_view name;
  Family kernel;   // for the wgmma ones: what a double problem runs
  bool automatic;
  Wgmma wgmma;
};
constexpr std::array<Kernel, 7> kernels = {{{"auto", Family::simt, true, Wgmma::none},
                                            {"simt", Family::simt, false, Wgmma::none},
                                            {"splitk", Family::splitk, false, Wgmma::none},
                                            {"tf32x3", Family::tf32x3, false, Wgmma::none},
                                            {"smallk", Family::smallk, false, Wgmma::none},
                                            {"wgmma_x3", Family::simt, false, Wgmma::x3},
                                            {"wgmma_tf32", Family::simt, false, Wgmma::tf32}}};

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
  if (k.wgmma == Wgmma::tf32) return Arithmetic::tf32;
  const bool tensor_cores = k.kernel == Family::tf32x3 || k.wgmma == Wgmma::x3 ||
                            (k.automatic && precision != Precision::ieee);
  return tensor_cores ? Arithmetic::tf32x3 : Arithmetic::ieee;
}

// auto's choice of the wgmma pipeline: where cuda_native::choose picks the tensor cores, the GPU has wgmma and
// its cost model (operand copies included) finishes before the mma.sync kernels at their best rate
// (tf32x3_best_flops_per_us, measured on the H100's largest squares; smaller products run slower, so this errs
// towards them).
constexpr double tf32x3_best_flops_per_us = 52e6;
bool wgmma_wins(const Device& device, cuda_wgmma::Input input, const cuda_wgmma::Problem& p) {
  if (cuda_native::choose(p.m, p.n, p.k, p.batch, true) != Family::tf32x3 || !cuda_wgmma::applies(device, input, p))
    return false;
  const double flops = 2.0 * double(p.m) * double(p.n) * double(p.k) * double(p.batch);
  return cuda_wgmma::estimated_us(device, input, p) < flops / tf32x3_best_flops_per_us;
}

std::string why_not_cuda_native(const Device& device, const deploy::Problem& problem, std::string_view config) {
  if (kernel_of(config)->wgmma == Wgmma::none) return {};
  const cuda_wgmma::Problem p{problem.trans_a, problem.trans_b, problem.m, problem.n, problem.k};
  if (!cuda_wgmma::applies(device, cuda_wgmma::Input::tf32x3, p))
    return "configuration '" + std::string(config) + "' needs compute capability 9.0 (" + device.name() + ")";
  return {};
}

template <class T>
void run_cuda_native(Queue& queue, std::string_view config, bool ta, bool tb, const GemmArgs<T>& p) {
  const Kernel& k = *kernel_of(config);   // the API checked the name against the space
  if constexpr (std::is_same_v<T, float>) {
    const cuda_wgmma::Problem w = cuda_wgmma::problem_of(ta, tb, p);
    using cuda_wgmma::Input;
    if (k.wgmma != Wgmma::none) {
      cuda_wgmma::run(queue, k.wgmma == Wgmma::tf32 ? Input::tf32 : Input::tf32x3, w);
      return;
    }
    // auto: 3xTF32 on wgmma at a precision that allows the tensor cores (wgmma_wins), as at the default one.
    if (k.automatic && p.precision != Precision::ieee && wgmma_wins(queue.device(), Input::tf32x3, w)) {
      cuda_wgmma::run(queue, Input::tf32x3, w);
      return;
    }
  }
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
                                    why_not_cuda_native,
                                    cuda_native_arithmetic,
                                    run_cuda_native<float>,
                                    run_cuda_native<double>,
                                    false};

}  // namespace portkern::gemm_impl
