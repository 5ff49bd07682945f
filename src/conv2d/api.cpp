// portkern::conv2d: the descriptor's checks, the rule's choice (or the caller's, completed with the
// algorithm's default configuration), the registry's check that the choice applies, and its run.
#include <string>

#include "conv2d/call.hpp"
#include "conv2d/grouped/gemm.hpp"
#include "conv2d/registry.hpp"
#include "conv2d/rule.hpp"
#include "portkern/dnn.hpp"
#include "portkern/error.hpp"
#if PORTKERN_HAVE_CUDA
#include "gemm/cuda_wgmma/wgmma_gemm.hpp"
#endif

namespace portkern {

namespace {

using namespace conv2d_impl;

Conv2dChoice resolve(const Device& device, const Conv2dDesc& d, const Conv2dChoice& force) {
  Conv2dChoice choice = force;
  if (choice.config.empty()) {
    if (choice.algorithm.empty()) {
      const Conv2dSelection s = conv2d_impl::select(device, d, force.precision);
      return {s.algorithm, s.config, force.precision};
    }
    const AlgorithmEntry* entry = find_conv2d_algorithm(choice.algorithm);
    if (entry) choice.config = entry->default_config(device);
  } else if (choice.algorithm.empty()) {
    choice.algorithm = choice.config.substr(0, choice.config.find('/'));
  }
  return choice;
}

// Runs `choice` (resolved) with `args` once the registry says it applies to `d`; an Error naming it otherwise.
void run_applicable(Queue& queue, const Conv2dDesc& d, const Conv2dChoice& choice, const ConvArgs& args) {
  if (const std::string why = conv2d_not_applicable(queue.device(), d, choice.algorithm, choice.config,
                                                    choice.precision);
      !why.empty())
    fail(conv2d_fn, "cannot use '" + (choice.config.empty() ? choice.algorithm : choice.config) +
                        "' for this descriptor: " + why);
  find_conv2d_algorithm(choice.algorithm)->run(queue, choice.config, args);
}

}  // namespace

std::vector<std::string> conv2d_algorithms() {
  std::vector<std::string> names;
  for (const AlgorithmEntry* entry : conv2d_algorithm_entries()) names.emplace_back(entry->name);
  return names;
}

std::string conv2d_default_config(const Device& device, const std::string& algorithm) {
  const AlgorithmEntry* entry = find_conv2d_algorithm(algorithm);
  if (!entry) fail("portkern::conv2d_default_config", conv2d_not_applicable(device, {}, algorithm, ""));
  return entry->default_config(device);
}

bool conv2d_supports(const Device& device, const Conv2dDesc& desc, const Conv2dChoice& force, std::string* why) {
  const Conv2dDesc d = conv2d_complete(desc);
  const Conv2dChoice choice = resolve(device, d, force);
  const std::string reason = conv2d_not_applicable(device, d, choice.algorithm, choice.config, choice.precision);
  if (why) *why = reason;
  return reason.empty();
}

Conv2dDeployment conv2d_deployment(const Device& device, Precision precision) {
  return conv2d_impl::deployment(device, precision);
}

Conv2dSelection conv2d_select(const Device& device, const Conv2dDesc& desc, Precision precision) {
  return conv2d_impl::select(device, conv2d_complete(desc), precision);
}

std::vector<Conv2dChoice> conv2d_space(const Device& device, bool instantiated_only) {
  std::vector<Conv2dChoice> space;
  for (const AlgorithmEntry* entry : conv2d_algorithm_entries())
    for (const std::string& config : instantiated_only ? entry->instantiated(device.backend()) : entry->space()) {
      const bool tf32_only = entry->arithmetic && !allows(Precision::accurate, entry->arithmetic(config));
      space.push_back({std::string(entry->name), config, tf32_only ? Precision::tf32 : Precision::accurate});
    }
  return space;
}

void conv2d(Queue& queue, const Conv2dDesc& desc, const float* input, const float* filter, float* output,
            const Conv2dChoice& force) {
  const Conv2dDesc d = conv2d_complete(desc);
  check_pointers(queue, d, input, filter, output);
  const Conv2dChoice choice = resolve(queue.device(), d, force);
  ConvArgs args = make_args(d, input, filter, output, choice.precision);
  const auto residual_copy = separate_residual(queue, args);
  run_applicable(queue, d, choice, args);
}

namespace {

// Whether the device multiplies fp32 on the wgmma pipeline, whose rows of the filter a packed filter holds.
bool has_tensor_core_rows(const Device& device) {
#if PORTKERN_HAVE_CUDA
  return gemm_impl::cuda_wgmma::has_wgmma(device);
#else
  return (void)device, false;
#endif
}

}  // namespace

bool conv2d_packs_filter(const Queue& queue, const Conv2dChoice& choice) {
  const std::string_view algorithm =
      !choice.algorithm.empty() ? std::string_view(choice.algorithm)
                                : std::string_view(choice.config).substr(0, choice.config.find('/'));
  if (algorithm == "implicit_wgmma")
    return has_tensor_core_rows(queue.device()) && choice.precision != Precision::ieee;
  return queue.device().is_cpu() && (queue.gemm_family().empty() || queue.gemm_family() == "cpu_packed") &&
         (algorithm == "gemm_1x1" || algorithm == "im2col" || choice.config == "grouped/gemm");
}

Conv2dPackedFilter conv2d_pack_filter(Queue& queue, const Conv2dDesc& desc, const float* filter) {
  const Conv2dDesc d = conv2d_complete(desc);
  require(d.groups == 1 || d.groups != d.in_c || d.out_c != d.in_c, "portkern::conv2d_pack_filter", "desc.groups",
          d.groups, "not in_c = out_c (a depthwise filter is read as it is)");
  Conv2dPackedFilter packed;
  packed.window_h_ = d.window_h;
  packed.window_w_ = d.window_w;
  packed.in_c_ = d.in_c;
  packed.out_c_ = d.out_c;
  // RSCK as a column-major out_c x (window_h * window_w * in_c / groups) matrix, the GEMM-based algorithms' A, a
  // block of rows per group
  const std::int64_t width = checked_product({d.window_h, d.window_w, d.in_c / d.groups},
                                             "portkern::conv2d_pack_filter", "window_h * window_w * in_c / groups");
  packed.matrices_ = pack_group_filters(queue, d.groups, d.out_c, width, filter);
#if PORTKERN_HAVE_CUDA
  if (d.groups == 1 && has_tensor_core_rows(queue.device()) && width < (std::int64_t(1) << 31) &&
      d.out_c < (std::int64_t(1) << 31)) {
    namespace wgmma = gemm_impl::cuda_wgmma;   // op(B) = the filter, width x out_c, out_c contiguous
    packed.rows_ = Buffer<float>(queue.device(), checked_product({d.out_c, wgmma::b_rows_ld(width)},
                                                                 "portkern::conv2d_pack_filter", "tensor-core rows"));
    wgmma::prepare_b(queue, filter, true, width, d.out_c, d.out_c, packed.rows_.data());
  }
#endif
  return packed;
}

void conv2d(Queue& queue, const Conv2dDesc& desc, const float* input, const Conv2dPackedFilter& filter,
            float* output, const Conv2dChoice& force) {
  const Conv2dDesc d = conv2d_complete(desc);
  require(filter.window_h() == d.window_h, conv2d_fn, "filter.window_h()", filter.window_h(),
          "desc.window_h = " + std::to_string(d.window_h));
  require(filter.window_w() == d.window_w, conv2d_fn, "filter.window_w()", filter.window_w(),
          "desc.window_w = " + std::to_string(d.window_w));
  require(filter.in_c() == d.in_c, conv2d_fn, "filter.in_c()", filter.in_c(), "desc.in_c = " + std::to_string(d.in_c));
  require(filter.out_c() == d.out_c, conv2d_fn, "filter.out_c()", filter.out_c(),
          "desc.out_c = " + std::to_string(d.out_c));
  require(filter.groups() == d.groups, conv2d_fn, "filter.groups()", filter.groups(),
          "desc.groups = " + std::to_string(d.groups));
  Conv2dChoice choice = force;
  if (choice.algorithm.empty() && choice.config.empty())
    choice.algorithm = d.groups > 1 ? "grouped"
                       : conv2d_not_applicable(queue.device(), d, "gemm_1x1", "gemm_1x1/default").empty() ? "gemm_1x1"
                                                                                                           : "im2col";
  if (choice.algorithm == "grouped" && choice.config.empty()) choice.config = "grouped/gemm";
  choice = resolve(queue.device(), d, choice);
  if (choice.algorithm != "gemm_1x1" && choice.algorithm != "im2col" && choice.algorithm != "implicit_wgmma" &&
      choice.config != "grouped/gemm")
    fail(conv2d_fn, "a packed filter runs gemm_1x1, im2col, implicit_wgmma or grouped/gemm, not '" +
                        (choice.config.empty() ? choice.algorithm : choice.config) + "'");
  check_pointers(queue, d, input, filter.matrix().data(), output);
  ConvArgs args = make_args(d, input, nullptr, output, choice.precision);
  args.packed_filter = &filter.matrix();
  args.filter_rows = filter.tensor_core_rows();
  const auto residual_copy = separate_residual(queue, args);
  run_applicable(queue, d, choice, args);
}

}  // namespace portkern
