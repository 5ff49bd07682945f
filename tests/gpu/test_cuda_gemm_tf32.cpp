// fp32 GEMM on the wgmma pipeline (src/gemm/cuda_wgmma/, the cuda_native family's "wgmma_x3" and "wgmma_tf32"
// configurations and its "auto" pick on sm_90): 3xTF32 at the accurate precision and TF32 at tf32 against float64 over GEMM's
// shared test bed (sizes 1 and primes, every transpose, alpha and beta, padded and odd strides, strided
// batches, C's padding poisoned); each tile width with k split into parts; A read into registers, through
// the copy engine in place and rewritten; operands the copy engine cannot read copied by threads or rewritten;
// and 3xTF32's error beside IEEE SGEMM's on the same data, TF32's well above both.
#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "gemm_cases.hpp"
#include "portkern/runtime/buffer.hpp"

#if PORTKERN_HAVE_CUDA
#include "gemm/cuda_wgmma/wgmma_gemm.hpp"
#endif

namespace portkern::testing {
namespace {

// 3xTF32 (wgmma_x3) at the accurate precision, TF32 (wgmma_tf32) at tf32.
GemmChoice wgmma_at(Precision precision) {
  return {"cuda_native", precision == Precision::tf32 ? "cuda_native/wgmma_tf32" : "cuda_native/wgmma_x3", precision};
}

// The kernel cuda_wgmma runs for case c (its name says the tile width, split and rewriting); empty without CUDA.
std::string kernel_of(const GemmCase& c, Precision precision, std::int64_t lda, std::int64_t ldb) {
#if PORTKERN_HAVE_CUDA
  gemm_impl::cuda_wgmma::Problem p;
  p.trans_a = c.ta, p.trans_b = c.tb, p.m = c.m, p.n = c.n, p.k = c.k, p.lda = lda, p.ldb = ldb, p.batch = c.batch;
  p.stride_a = lda * (c.ta ? c.m : c.k) + 3, p.stride_b = ldb * (c.tb ? c.k : c.n) + 5;   // check_gemm's (odd)
  return gemm_impl::cuda_wgmma::kernel_for(
      Device::cuda(0),
      precision == Precision::tf32 ? gemm_impl::cuda_wgmma::Input::tf32 : gemm_impl::cuda_wgmma::Input::tf32x3, p);
#else
  return {};
#endif
}

// Sets an environment variable of wgmma_gemm.cpp's for one scope (PORTKERN_WGMMA_KERNEL: the tile width its
// plan must take; PORTKERN_WGMMA_A=shared: A read through shared memory, not registers; PORTKERN_WGMMA_COPY: how
// operands the copy engine cannot read are copied); "" leaves it unset.
struct Forced {
  Forced(const char* name, const char* value) : name(name) {
    if (*value) setenv(name, value, 1);
  }
  ~Forced() { unsetenv(name); }
  const char* name;
};

TEST(GemmTf32Cuda, WgmmaMatchesReferenceAtBothPrecisions) {
  PORTKERN_REQUIRE_HOPPER();
  for (Precision precision : {Precision::accurate, Precision::tf32})
    for (const GemmCase& c : gemm_cases()) check_gemm<float>(Device::cuda(0), c, wgmma_at(precision));
}

// Each width on few tiles over a deep k (the plan splits k; 3xTF32's three passes of a k-tile may fall in
// different parts) and on many tiles (no split); A read into registers (K-major and M-major, at both
// precisions), K-major operands with aligned leading dimensions, which TF32 reads in place, and others; operands
// the copy engine cannot read copied by the producer's threads or rewritten first (PORTKERN_WGMMA_COPY=threads
// or repack; by default the model picks); and again with A through shared memory (PORTKERN_WGMMA_A=shared).
TEST(GemmTf32Cuda, EveryTileWidthSplitOrNot) {
  PORTKERN_REQUIRE_HOPPER();
  const GemmCase shapes[] = {{true, false, 129, 263, 1000, 1.0, 0.0},   // K-major, aligned: TF32 in place
                             {false, true, 200, 77, 2053, -0.5, 0.75},  // neither K-major
                             {true, false, 64, 40, 4096, 1.0, 1.0, 0, 2},
                             {false, false, 300, 97, 1111, 1.0, 0.0, 0, 3},   // A M-major, aligned
                             {false, false, 700, 520, 97, 0.7, 0.0, 3},       // A M-major, not copyable
                             {true, false, 250, 190, 333, 1.0, 0.5, 1}};      // both K-major, not copyable
  struct Mode {
    const char *a_from, *copy;
  };
  for (const Mode mode : {Mode{"", "threads"}, Mode{"", "repack"}, Mode{"shared", ""}})
    for (const char* width : {"64", "128", "256"}) {
      const Forced forced_width("PORTKERN_WGMMA_KERNEL", width), forced_a("PORTKERN_WGMMA_A", mode.a_from),
          forced_copy("PORTKERN_WGMMA_COPY", mode.copy);
      bool split = false, in_place = false, registers[2] = {false, false}, by_threads[2] = {false, false};
      for (Precision precision : {Precision::accurate, Precision::tf32})
        for (const GemmCase& c : shapes) {
          const std::int64_t lda = (c.ta ? c.k : c.m) + c.pad, ldb = (c.tb ? c.n : c.k) + c.pad;
          const std::string kernel = kernel_of(c, precision, lda, ldb);
          SCOPED_TRACE(kernel + " A from '" + mode.a_from + "', copy '" + mode.copy + "'");
          // 3xTF32 keeps two accumulators: its tiles have at most 128 columns.
          const bool x3_narrows = precision == Precision::accurate && std::string(width) == "256";
          EXPECT_NE(kernel.find(std::string("128x") + (x3_narrows ? "128" : width)), std::string::npos);
          split = split || kernel.find("_split") != std::string::npos;
          in_place = in_place || (precision == Precision::tf32 && kernel.find("_repacked") == std::string::npos);
          if (kernel.find("_a_in_registers") != std::string::npos) registers[c.ta] = true;
          by_threads[0] = by_threads[0] || kernel.find("_a_by_threads") != std::string::npos;
          by_threads[1] = by_threads[1] || kernel.find("_b_by_threads") != std::string::npos;
          check_gemm<float>(Device::cuda(0), c, wgmma_at(precision));
        }
      EXPECT_TRUE(split) << "no case split k at width " << width;
      EXPECT_TRUE(in_place) << "no TF32 case read its operands in place at width " << width;
      // Some case reads an M-major A, and some a K-major one, into registers; through shared memory, none does.
      EXPECT_EQ(registers[0], !*mode.a_from) << "width " << width;
      EXPECT_EQ(registers[1], !*mode.a_from) << "width " << width;
      // Threads copy some A (into registers) where forced to, and never B (rewritten: TF32 rounds it).
      EXPECT_EQ(by_threads[0], std::string(mode.copy) == "threads") << "width " << width;
      EXPECT_FALSE(by_threads[1]) << "width " << width;
    }
}

// The transposed product (C^T = op(B)^T op(A)^T, written into C transposed), forced on the shared bed at both
// precisions and with k split; and chosen by default where A has few rows and 3xTF32 would rewrite a large B.
TEST(GemmTf32Cuda, TransposedProductMatchesReference) {
  PORTKERN_REQUIRE_HOPPER();
  {
    const Forced swap("PORTKERN_WGMMA_SWAP", "1");
    bool split = false;
    for (Precision precision : {Precision::accurate, Precision::tf32})
      for (const GemmCase& c : gemm_cases()) {
        const std::int64_t lda = (c.ta ? c.k : c.m) + c.pad, ldb = (c.tb ? c.n : c.k) + c.pad;
        const std::string kernel = kernel_of(c, precision, lda, ldb);
        SCOPED_TRACE(kernel);
        EXPECT_NE(kernel.find("_swapped"), std::string::npos);
        split = split || kernel.find("_split") != std::string::npos;
        check_gemm<float>(Device::cuda(0), c, wgmma_at(precision));
      }
    EXPECT_TRUE(split) << "no transposed product split k";
  }
  const GemmCase few_rows{false, false, 16, 1000, 4096, 1.0, 0.0};   // a fully connected layer at batch 16
  EXPECT_NE(kernel_of(few_rows, Precision::accurate, few_rows.m, few_rows.k).find("_swapped"), std::string::npos);
  check_gemm<float>(Device::cuda(0), few_rows, wgmma_at(Precision::accurate));
}

// max |C - C64| / max |C64| of one product on the GPU under `choice`.
double relative_error(Queue& q, const GemmChoice& choice, std::int64_t m, std::int64_t n, std::int64_t k,
                      const std::vector<float>& a, const std::vector<float>& b, const std::vector<double>& want) {
  Buffer<float> da(q.device(), m * k), db(q.device(), k * n), dc(q.device(), m * n);
  da.upload(q, a);
  db.upload(q, b);
  gemm<float>(q, Op::none, Op::none, m, n, k, 1.f, da.data(), m, db.data(), k, 0.f, dc.data(), m, choice);
  const auto c = dc.download(q);
  double error = 0, scale = 0;
  for (std::size_t i = 0; i < c.size(); ++i) {
    error = std::max(error, std::abs(double(c[i]) - want[i]));
    scale = std::max(scale, std::abs(want[i]));
  }
  return error / scale;
}

// The accurate precision's promise on the tensor cores: no worse than IEEE SGEMM (here the SIMT kernel) on the
// same data, with room for the order of summation (a factor 2); TF32 is far less accurate, so the
// comparison can tell the arithmetics apart.
TEST(GemmTf32Cuda, ThreeTf32IsAsAccurateAsIeeeSgemm) {
  PORTKERN_REQUIRE_HOPPER();
  const std::int64_t m = 384, n = 320, k = 2048;
  const auto a = random_vector<float>(std::size_t(m * k), 31), b = random_vector<float>(std::size_t(k * n), 32);
  std::vector<double> want(std::size_t(m * n), 0.0);
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t l = 0; l < k; ++l) {
      const double y = b[std::size_t(l + j * k)];
      for (std::int64_t i = 0; i < m; ++i) want[std::size_t(i + j * m)] += double(a[std::size_t(i + l * m)]) * y;
    }
  Queue q(Device::cuda(0));
  const double ieee = relative_error(q, {"cuda_native", "cuda_native/simt", Precision::ieee}, m, n, k, a, b, want);
  const double x3 = relative_error(q, wgmma_at(Precision::accurate), m, n, k, a, b, want);
  const double tf32 = relative_error(q, wgmma_at(Precision::tf32), m, n, k, a, b, want);
  RecordProperty("ieee", std::to_string(ieee));
  RecordProperty("tf32x3", std::to_string(x3));
  RecordProperty("tf32", std::to_string(tf32));
  EXPECT_LE(x3, 2 * ieee) << "3xTF32 " << x3 << " vs IEEE " << ieee;
  EXPECT_GT(tf32, 16 * std::max(x3, ieee)) << "TF32 " << tf32;
}

// Inf and NaN inputs never come out finite (3xTF32's documented deviation, docs/precision.md: Inf - Inf in the
// split gives NaN where IEEE gives Inf; TF32 keeps Inf), and rows without them are unaffected.
TEST(GemmTf32Cuda, SpecialValuesNeverComeOutFinite) {
  PORTKERN_REQUIRE_HOPPER();
  const std::int64_t m = 70, n = 40, k = 33;
  auto a = random_vector<float>(std::size_t(m * k), 41), b = random_vector<float>(std::size_t(k * n), 42);
  for (auto& x : b) x = std::abs(x) + 0.25f;
  a[3 + 5 * m] = INFINITY;
  a[7 + 2 * m] = NAN;
  Queue q(Device::cuda(0));
  Buffer<float> da(q.device(), m * k), db(q.device(), k * n), dc(q.device(), m * n);
  da.upload(q, a);
  db.upload(q, b);
  for (Precision precision : {Precision::accurate, Precision::tf32}) {
    q.fill(dc.data(), 1.f, dc.size());
    gemm<float>(q, Op::none, Op::none, m, n, k, 1.f, da.data(), m, db.data(), k, 0.f, dc.data(), m, wgmma_at(precision));
    const auto c = dc.download(q);
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t i = 0; i < m; ++i) {
        const float got = c[std::size_t(i + j * m)];
        if (i == 7) EXPECT_TRUE(std::isnan(got)) << "C(7, " << j << ") = " << got;
        else if (i == 3) EXPECT_FALSE(std::isfinite(got)) << "C(3, " << j << ") = " << got;
        else ASSERT_TRUE(std::isfinite(got)) << "C(" << i << ", " << j << ") = " << got;
      }
  }
}

// The configuration names what it needs: on a GPU other than compute capability 9.0 it is not applicable.
TEST(GemmTf32Cuda, OtherGpusAreToldWhy) {
  PORTKERN_REQUIRE_GPU();
  const std::string why =
      gemm_not_applicable(Device::cuda(0), {256, 256, 256}, "cuda_native", "cuda_native/wgmma_x3", Precision::accurate);
  if (hopper()) EXPECT_EQ(why, "");
  else EXPECT_NE(why.find("compute capability 9.0"), std::string::npos) << why;
  for (const char* config : {"cuda_native/wgmma_x3", "cuda_native/wgmma_tf32"})
    EXPECT_NE(gemm_not_applicable(Device::cuda(0), {256, 256, 256}, "cuda_native", config, Precision::ieee)
                  .find("does not allow"),
              std::string::npos)
        << config;
  EXPECT_NE(gemm_not_applicable(Device::cuda(0), {256, 256, 256}, "cuda_native", "cuda_native/wgmma_tf32",
                                Precision::accurate)
                .find("does not allow"),
            std::string::npos);
}

}  // namespace
}  // namespace portkern::testing
