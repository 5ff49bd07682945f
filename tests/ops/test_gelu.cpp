// gelu against its reference (half add, GELU in float64): every vector width (8 halves, pairs, and the
// single-half fallback of a misaligned pointer), rows shorter and longer than a group's step, a partial last
// group, overflow of the half add, NaN, an empty tensor, and bad arguments.
#include "op_testing.hpp"
#include "ops/gelu/reference.hpp"
#include "portkern/ops/gelu.hpp"

namespace portkern::testing {
namespace {

// Tolerance against the unrounded float64 GELU: rounding to half is within 2^-11 relative (4.9e-4) for
// normal results; computing in float adds ~1e-6 relative, except where 1 + tanh(z) cancels (u < -2): there
// tanhf's absolute error (2 ulp of 1, 1.2e-7) times 0.5|u| <= 3.5 gives 4.2e-7 absolute, and half's
// subnormal spacing is 6e-8. So |got - ref| <= 5e-7 + 5e-4 |ref|; a wrong bias column or a skipped element
// is off by far more.
constexpr double abs_tol = 5e-7, rel_tol = 5e-4;

std::vector<half> halves(const std::vector<float>& v) {
  std::vector<half> h(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) h[i] = kernel::to_half(v[i]);
  return h;
}

std::vector<float> floats(const std::vector<half>& v) {
  std::vector<float> f(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) f[i] = kernel::to_float(v[i]);
  return f;
}

void check_gelu(const Device& device, std::int64_t batch, std::int64_t seq, std::int64_t hidden, int misalign = 0,
                std::vector<float> src_values = {}, std::vector<float> bias_values = {}) {
  Queue q(device);
  const std::int64_t numel = batch * seq * hidden;
  if (src_values.empty()) src_values = random_vector<float>(std::size_t(numel), 5);
  if (bias_values.empty()) {
    bias_values = random_vector<float>(std::size_t(hidden), 9);
    for (std::size_t i = 0; i < bias_values.size(); ++i) bias_values[i] += float(int(i * 7 % 12) - 6);   // [-6, 5]
  }
  const auto src_host = halves(src_values), bias_host = halves(bias_values);
  std::vector<half> padded(std::size_t(misalign), kernel::to_half(0.25f));
  padded.insert(padded.end(), src_host.begin(), src_host.end());
  std::vector<half> bias_padded(std::size_t(misalign), kernel::to_half(0.25f));
  bias_padded.insert(bias_padded.end(), bias_host.begin(), bias_host.end());
  auto src = to_device(q, padded);
  auto bias = to_device(q, bias_padded);
  ops::gelu(q, batch, seq, hidden, src.data() + misalign, bias.data() + misalign);
  auto got = floats(src.download(q));
  EXPECT_EQ(got[0], misalign ? 0.25f : got[0]) << "wrote before src";
  got.erase(got.begin(), got.begin() + misalign);
  got.resize(std::size_t(numel));
  EXPECT_TRUE(all_close(got, ops::gelu_impl::reference(hidden, src_host, bias_host), abs_tol, rel_tol))
      << batch << 'x' << seq << 'x' << hidden << " misalign " << misalign;
}

PORTKERN_OP_TEST(Gelu, EveryVectorWidth) {
  check_gelu(device, 1, 1, 2);
  check_gelu(device, 3, 5, 26);      // pairs, rows shorter than a step
  check_gelu(device, 2, 3, 40);      // 8-half vectors
  check_gelu(device, 1, 7, 1030);    // pairs
  check_gelu(device, 2, 1, 4104);    // 8-half vectors, rows longer than a step, partial group
  check_gelu(device, 1, 3, 512);     // rows a whole number of steps (row_walk's aligned case) on the CPU
  check_gelu(device, 1, 5, 2048);    // ... and on CUDA (8-half vectors), a partial last group
  check_gelu(device, 3, 5, 26, 1);   // misaligned: single halves
  check_gelu(device, 2, 3, 40, 2);   // 4-byte aligned only: pairs
  check_gelu(device, 3, 7, 48);      // 16-half vectors on the CPU, rows not a whole number of steps
  check_gelu(device, 2, 3, 48, 1);   // ... misaligned by one half (the CPU's 16-half form loads unaligned)
  check_gelu(device, 1, 3, 4112);    // ... rows longer than a step (4096 halves), partial last group
}

PORTKERN_OP_TEST(Gelu, SpecialValuesInEveryForm) {
  // Inf, NaN, half subnormals (u = 3e-6, and sums that round to subnormals) and large |u| at hidden = 16
  // (the CPU's 16-half vectors) as well as at hidden = 4 in OverflowAndNan below.
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> src = {65504, -65504, nan, -1, 1, 0.5f, -0.5f, 1e-3f, 3e-6f, -3e-6f, 6e-8f, 0, -0.f, 12, -12, 4};
  std::vector<float> bias = {5, -6, 1, -5, 0, 0, 0, 0, 0, 1e-6f, -6e-8f, 0, 0, 0, 0, -4};
  for (int row = 1; row < 3; ++row)
    for (int i = 0; i < 16; ++i) src.push_back(src[std::size_t(i)] * (row == 1 ? -0.5f : 0.25f));
  check_gelu(device, 1, 3, 16, 0, src, bias);
}

PORTKERN_OP_TEST(Gelu, OverflowAndNan) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  // 65504 + 5 rounds to +inf in half (GELU(inf) = inf); -65504 - 6 to -inf (GELU: -inf * 0 = NaN, as the
  // formula gives in any precision); NaN stays NaN; large negative u underflows to -0.
  check_gelu(device, 1, 2, 4, 0, {65504, -65504, nan, -1, 1, 0.5f, -0.5f, 1e-3f}, {5, -6, 1, -5});
}

PORTKERN_OP_TEST(Gelu, EmptyTensorReturnsAtOnce) {
  Queue q(device);
  ops::gelu(q, 0, 5, 8, nullptr, nullptr);
  ops::gelu(q, 3, 0, 8, nullptr, nullptr);
  ops::gelu(q, 3, 5, 0, nullptr, nullptr);
}

PORTKERN_OP_TEST(Gelu, BadArgumentsAreErrors) {
  Queue q(device);
  Buffer<half> src(device, 30), bias(device, 6);
  EXPECT_PORTKERN_ERROR(ops::gelu(q, 1, 5, 5, src.data(), bias.data()), "hidden = 5");
  EXPECT_PORTKERN_ERROR(ops::gelu(q, 1, 5, -2, src.data(), bias.data()), "hidden = -2");
  EXPECT_PORTKERN_ERROR(ops::gelu(q, -1, 5, 6, src.data(), bias.data()), "batch = -1");
  EXPECT_PORTKERN_ERROR(ops::gelu(q, 1, -5, 6, src.data(), bias.data()), "seq = -5");
  EXPECT_PORTKERN_ERROR(ops::gelu(q, 1, 5, 6, nullptr, bias.data()), "src");
  EXPECT_PORTKERN_ERROR(ops::gelu(q, 1, 5, 6, src.data(), nullptr), "bias");
}

}  // namespace
}  // namespace portkern::testing
