// Fuzz target: the convolution descriptor checks (with_padding, conv2d_complete, conv2d_supports,
// conv2d_select) on descriptors of small and of extreme sizes; a descriptor they accept and that is small
// enough is also run through each algorithm that supports it (ASan checks every access). Nothing but a
// portkern::Error may come out.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstdint>
#include <vector>

#include "portkern/checked.hpp"
#include "portkern/dnn.hpp"
#include "portkern/error.hpp"

namespace {

std::int64_t size_field(FuzzedDataProvider& in) {
  switch (in.ConsumeIntegralInRange(0, 7)) {
    case 0: return in.ConsumeIntegral<std::int64_t>();
    case 1: return std::int64_t(1) << in.ConsumeIntegralInRange(30, 62);
    default: return in.ConsumeIntegralInRange<std::int64_t>(-1, 12);
  }
}

// The product of `factors` when it fits 64 bits and is at most `limit`, else 0.
std::int64_t at_most(std::initializer_list<std::int64_t> factors, std::int64_t limit) {
  try {
    const std::int64_t p = portkern::checked_product(factors, "fuzz", "size");
    return p <= limit ? p : 0;
  } catch (const portkern::Error&) {
    return 0;
  }
}

void run_small(const portkern::Conv2dDesc& d) {
  const auto input = at_most({d.batch, d.in_h, d.in_w, d.in_c}, 4096);
  const auto filter = at_most({d.window_h, d.window_w, d.in_c, d.out_c}, 4096);
  const auto output = at_most({d.batch, d.out_h, d.out_w, d.out_c}, 4096);
  if (!input || !filter || !output || !at_most({output, d.window_h, d.window_w, d.in_c}, 1 << 18)) return;
  static portkern::Queue queue(portkern::Device::cpu(), 1);
  std::vector<float> in(static_cast<std::size_t>(input), 1.f), f(static_cast<std::size_t>(filter), 0.5f),
      out(static_cast<std::size_t>(output));
  // Each algorithm's default configuration, im2col's patches read in place (its own padded copy) and the grouped
  // convolution's GEMM per channel group.
  for (const portkern::Conv2dChoice& choice :
       {portkern::Conv2dChoice{"direct", ""}, {"tiled", ""}, {"im2col", ""}, {"im2col", "im2col/in_place"},
        {"gemm_1x1", ""}, {"winograd", ""}, {"depthwise", ""}, {"grouped", ""}, {"grouped", "grouped/gemm"}}) {
    if (!portkern::conv2d_supports(queue.device(), d, choice)) continue;
    portkern::conv2d(queue, d, in.data(), f.data(), out.data(), choice);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  portkern::Conv2dDesc d;
  for (std::int64_t* field : {&d.batch, &d.in_h, &d.in_w, &d.in_c, &d.out_c, &d.window_h, &d.window_w, &d.stride_h,
                              &d.stride_w, &d.pad_top, &d.pad_bottom, &d.pad_left, &d.pad_right, &d.dilation_h,
                              &d.dilation_w, &d.out_h, &d.out_w})
    *field = size_field(in);
  const int padding = in.ConsumeIntegralInRange(0, 2);
  // The group count from what is left (seed inputs of one group keep their meaning where nothing is).
  if (in.remaining_bytes() > 0) d.groups = size_field(in);
  try {
    if (padding < 2) d = portkern::with_padding(d, padding ? portkern::Padding::same : portkern::Padding::valid);
    const portkern::Conv2dDesc complete = portkern::conv2d_complete(d);
    (void)portkern::conv2d_select(portkern::Device::cpu(), complete);
    for (const char* algorithm : {"direct", "tiled", "im2col", "gemm_1x1", "winograd", "fft", "depthwise", "grouped"})
      (void)portkern::conv2d_supports(portkern::Device::cpu(), complete, {algorithm, ""});
    run_small(complete);
  } catch (const portkern::Error&) {
  }
  return 0;
}
