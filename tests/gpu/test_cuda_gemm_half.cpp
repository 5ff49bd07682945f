// The GEMM on 16-bit inputs on a GPU (bfloat16 and, through every kernel, IEEE half A and B; fp32 sums and C;
// src/gemm/cuda_wgmma/wgmma_gemm.hpp) against float64 on the rounded inputs: each wgmma tile width with and
// without split k, operands the copy engine cannot read (copied by the pipeline's threads, or first), the small-k
// kernel, the matrix-vector product, the SIMT fallback, each of the four transposes, sizes of 1,
// primes across the 128-row tiles and 64-deep k-tiles, alpha and beta (beta == 0 with NaN in C), C's padding
// poisoned and untouched, C written through the copy engine (stored, added) and element by element, strided
// batches with C between the items untouched, and the quick returns.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <span>

#include "gemm_half_reference.hpp"
#include "portkern/runtime/buffer.hpp"

#if PORTKERN_HAVE_CUDA
#include "gemm/cuda_wgmma/wgmma_gemm.hpp"
#endif

namespace portkern::testing {
namespace {

// The kernel the public call will run (asserted, so that a test meant for the wgmma pipeline cannot pass on
// the fallback); empty in a build without CUDA.
// C as the call's: base, leading dimension, batch stride and beta (which decide how the pipeline writes C).
struct COf {
  float* c = nullptr;
  std::int64_t ldc = 0, stride_c = 0;
  float beta = 0.f;
};
std::string kernel_for(bool ta, bool tb, const HalfCase& s, const void* a, std::int64_t lda, const void* b,
                       std::int64_t ldb, std::int64_t stride_a = 0, std::int64_t stride_b = 0, std::int64_t batch = 1,
                       COf c = {}) {
#if PORTKERN_HAVE_CUDA
  gemm_impl::cuda_wgmma::Problem p;
  p.trans_a = ta, p.trans_b = tb, p.m = s.m, p.n = s.n, p.k = s.k, p.a = a, p.lda = lda, p.b = b, p.ldb = ldb;
  p.stride_a = stride_a, p.stride_b = stride_b, p.batch = batch;
  p.c = c.c, p.ldc = c.ldc, p.stride_c = c.stride_c, p.beta = c.beta;
  return gemm_impl::cuda_wgmma::kernel_for(Device::cuda(0), gemm_impl::cuda_wgmma::Input::bf16, p);
#else
  return {};
#endif
}

// One product through portkern::gemm on the GPU; returns the kernel that ran it.
template <class In>
std::string run_on_gpu(Queue& q, const HalfCase& s, bool ta, bool tb, float alpha, float beta, HalfOperands<In>& o) {
  Buffer<In> a(q.device(), std::int64_t(o.a.size())), b(q.device(), std::int64_t(o.b.size()));
  Buffer<float> c(q.device(), std::int64_t(o.c.size()));
  a.upload(q, std::span<const In>(o.a));
  b.upload(q, std::span<const In>(o.b));
  c.upload(q, std::span<const float>(o.c));
  const std::string kernel = kernel_for(ta, tb, s, a.data(), o.lda, b.data(), o.ldb, 0, 0, 1, {c.data(), o.ldc, 0, beta});
  gemm(q, ta ? Op::trans : Op::none, tb ? Op::trans : Op::none, s.m, s.n, s.k, alpha, a.data(), o.lda, b.data(),
       o.ldb, beta, c.data(), o.ldc);
  o.c = c.download(q);
  return kernel;
}

// 1 x 1; one row and one column; primes inside one tile and across 128-row tiles, 128- and 256-column tiles and
// 64-deep k-tiles; a depth of 1000 (16 k-tiles: every stage reused).
const HalfCase cases[] = {{1, 1, 1},   {1, 37, 61},   {67, 1, 33},    {67, 45, 33},  {131, 7, 509},
                          {257, 300, 64}, {200, 200, 600}, {129, 263, 1000}, {5, 513, 17}};

using AlphaBeta = std::pair<float, float>;
constexpr AlphaBeta default_scalings[] = {{1.f, 0.f}, {-0.75f, 0.5f}};

// Every case at each transpose and alpha/beta; returns the kernels that ran, each checked by `expect` (given
// the case's beta too).
std::vector<std::string> check_cases(Lds lds, const std::function<void(const std::string&, float)>& expect,
                                     std::span<const HalfCase> shapes = cases, Ldc ldc = Ldc::any,
                                     std::span<const AlphaBeta> scalings = default_scalings) {
  Queue q(Device::cuda(0));
  std::vector<std::string> kernels;
  for (bool ta : {false, true})
    for (bool tb : {false, true})
      for (const HalfCase& s : shapes)
        for (const auto& [alpha, beta] : scalings) {
          SCOPED_TRACE("m=" + std::to_string(s.m) + " n=" + std::to_string(s.n) + " k=" + std::to_string(s.k) +
                       " ta=" + std::to_string(ta) + " tb=" + std::to_string(tb) + " alpha=" + std::to_string(alpha) +
                       " beta=" + std::to_string(beta));
          HalfOperands<bfloat16> o = make_half_operands<bfloat16>(s, ta, tb, beta != 0.f, lds, ldc);
          kernels.push_back(run_on_gpu(q, s, ta, tb, alpha, beta, o));
          SCOPED_TRACE("kernel " + kernels.back() + ", ldc " + std::to_string(o.ldc));
          expect(kernels.back(), beta);
          expect_half_product(s, ta, tb, alpha, beta, o);
        }
  return kernels;
}

bool contains(const std::string& s, const char* part) { return s.find(part) != std::string::npos; }

// Each tile width, forced through PORTKERN_WGMMA_KERNEL (wgmma_gemm.cpp), on every case; k as the model splits
// it, and in 3 parts (PORTKERN_WGMMA_SPLITS) where it has more than one k-tile.
TEST(GemmBf16Cuda, WgmmaMatchesFloat64) {
  PORTKERN_REQUIRE_HOPPER();
  for (const char* splits : {"", "3"})
    for (const char* width : {"64", "128", "256"}) {
      SCOPED_TRACE(std::string("tile width ") + width + ", splits " + splits);
      ::setenv("PORTKERN_WGMMA_KERNEL", width, 1);
      if (*splits) ::setenv("PORTKERN_WGMMA_SPLITS", splits, 1);
      const auto kernels = check_cases(Lds::multiple_of_8, [&](const std::string& kernel, float) {
        EXPECT_EQ(kernel.rfind(std::string("wgmma_128x") + width, 0), 0u);
        EXPECT_FALSE(contains(kernel, "_repacked"));
      });
      ::unsetenv("PORTKERN_WGMMA_KERNEL");
      ::unsetenv("PORTKERN_WGMMA_SPLITS");
      const bool forced = *splits;
      EXPECT_EQ(std::any_of(kernels.begin(), kernels.end(), [](const auto& k) { return contains(k, "_split3"); }),
                forced);
      EXPECT_TRUE(std::any_of(kernels.begin(), kernels.end(), [](const auto& k) { return !contains(k, "_split"); }));
    }
}

// Leading dimensions the copy engine cannot take, at each tile width: aligned to 4 or 8 bytes, the producer's
// threads copy the operands into the stages or a pass copies them first (PORTKERN_WGMMA_COPY=threads or repack;
// by default the model picks); odd, a pass always does. Small k and single rows take their own kernels.
TEST(GemmBf16Cuda, OperandsTheCopyEngineCannotReadMatchFloat64) {
  PORTKERN_REQUIRE_HOPPER();
  struct Mode {
    const char* copy;
    Lds lds;
    bool threads;   // expected: copied by threads, else first
  };
  for (const Mode mode : {Mode{"threads", Lds::pairs, true}, Mode{"threads", Lds::quads, true},
                          Mode{"threads", Lds::odd, false}, Mode{"repack", Lds::pairs, false}})
    for (const char* width : {"64", "128", "256"}) {
      SCOPED_TRACE(std::string("copy ") + mode.copy + ", lds " + std::to_string(int(mode.lds)) + ", tile width " + width);
      ::setenv("PORTKERN_WGMMA_COPY", mode.copy, 1);
      ::setenv("PORTKERN_WGMMA_KERNEL", width, 1);
      const auto kernels = check_cases(mode.lds, [&](const std::string& kernel, float) {
        if (kernel == "small_k" || kernel == "gemv") return;
        EXPECT_EQ(kernel.rfind(std::string("wgmma_128x") + width, 0), 0u);
        EXPECT_EQ(contains(kernel, "_a_by_threads") || contains(kernel, "_b_by_threads"), mode.threads);
        EXPECT_EQ(contains(kernel, "_repacked"), !mode.threads);
      });
      ::unsetenv("PORTKERN_WGMMA_KERNEL");
      ::unsetenv("PORTKERN_WGMMA_COPY");
      for (const char* which : {"_a_by_threads", "_b_by_threads"})
        EXPECT_EQ(std::any_of(kernels.begin(), kernels.end(), [&](const auto& k) { return contains(k, which); }),
                  mode.threads) << which;
    }
}

// The transposed product (C^T = op(B)^T op(A)^T, written into C transposed), forced at each tile width with
// aligned operands and with operands copied by threads, k as the model splits it and in 3 parts; and chosen by
// default for a batch of products of 16 rows.
TEST(GemmBf16Cuda, TransposedProductMatchesFloat64) {
  PORTKERN_REQUIRE_HOPPER();
  ::setenv("PORTKERN_WGMMA_SWAP", "1", 1);
  ::setenv("PORTKERN_WGMMA_COPY", "threads", 1);
  for (const char* splits : {"", "3"})
    for (const char* width : {"64", "128", "256"})
      for (Lds lds : {Lds::multiple_of_8, Lds::pairs}) {
        SCOPED_TRACE(std::string("tile width ") + width + ", lds " + std::to_string(int(lds)) + ", splits " + splits);
        ::setenv("PORTKERN_WGMMA_KERNEL", width, 1);
        if (*splits) ::setenv("PORTKERN_WGMMA_SPLITS", splits, 1);
        const auto kernels = check_cases(lds, [&](const std::string& kernel, float) {
          if (kernel == "small_k" || kernel == "gemv") return;
          EXPECT_TRUE(contains(kernel, "_swapped"));
        });
        ::unsetenv("PORTKERN_WGMMA_SPLITS");
        const bool forced = *splits;
        EXPECT_EQ(std::any_of(kernels.begin(), kernels.end(), [](const auto& k) { return contains(k, "_split3"); }),
                  forced);
      }
  ::unsetenv("PORTKERN_WGMMA_KERNEL");
  ::unsetenv("PORTKERN_WGMMA_COPY");
  ::unsetenv("PORTKERN_WGMMA_SWAP");
  const HalfCase few_rows{16, 512, 512};
  EXPECT_TRUE(contains(kernel_for(false, false, few_rows, nullptr, 16, nullptr, 512, 16 * 512, 512 * 512, 36), "_swapped"));
}

// How the pipeline writes C, at each tile width, as it is and transposed: through the copy engine, stored where
// beta is 0 and added where beta is 1 (split k's later parts, which add: SplitKMatchesFloat64), with the edges of
// partial tiles left out and C's padding untouched, rows past a multiple of 4 (which the copy engine, writing whole 16-byte units, leaves
// to the threads) included; element by element where beta is neither, or where C's leading dimension is not a
// multiple of 4 or C has fewer than 4 rows.
TEST(GemmBf16Cuda, EpilogueMatchesFloat64) {
  PORTKERN_REQUIRE_HOPPER();
  const HalfCase shapes[] = {{1, 1, 1},      {131, 7, 509},   {4, 513, 17},    {68, 45, 33},  {132, 7, 509},
                             {260, 300, 64}, {201, 190, 700}, {42, 70, 1000}, {3, 65, 40},   {5, 300, 129}};
  constexpr AlphaBeta scalings[] = {{1.f, 0.f}, {0.5f, 1.f}, {-0.75f, 0.5f}};
  for (const char* swap : {"0", "1"})
    for (const char* width : {"64", "128", "256"})
      for (Ldc ldc : {Ldc::aligned, Ldc::unaligned}) {
        SCOPED_TRACE(std::string("swap ") + swap + ", tile width " + width + ", aligned ldc " +
                     std::to_string(ldc == Ldc::aligned));
        ::setenv("PORTKERN_WGMMA_SWAP", swap, 1);
        ::setenv("PORTKERN_WGMMA_KERNEL", width, 1);
        for (const HalfCase& s : shapes)
          check_cases(
              Lds::multiple_of_8,
              [&](const std::string& kernel, float beta) {
                EXPECT_EQ(contains(kernel, "_swapped"), swap[0] == '1');
                const bool engine = ldc == Ldc::aligned && s.m >= 4 && (beta == 0.f || beta == 1.f);
                EXPECT_EQ(contains(kernel, "_c_by_threads"), !engine);
              },
              std::span(&s, 1), ldc, scalings);
      }
  ::unsetenv("PORTKERN_WGMMA_KERNEL");
  ::unsetenv("PORTKERN_WGMMA_SWAP");
}

// k split into 2, 3 and 16 parts (PORTKERN_WGMMA_SPLITS; fewer where k has fewer 64-deep k-tiles), at the
// narrowest and widest tiles: the first part of each tile writes beta * C plus its product (C poisoned with NaN
// where beta is 0), the others add once it has landed, through the copy engine or element by element; beta = 1,
// where all parts add at once. Many calls on one queue, so that counters left non-zero would hang or break the
// calls after.
TEST(GemmBf16Cuda, SplitKMatchesFloat64) {
  PORTKERN_REQUIRE_HOPPER();
  const HalfCase shapes[] = {{1, 1, 1}, {131, 7, 509}, {260, 300, 1000}, {5, 513, 200}, {200, 200, 600}};
  constexpr AlphaBeta scalings[] = {{1.f, 0.f}, {0.5f, 1.f}, {-0.75f, 0.5f}};
  for (const char* splits : {"2", "3", "16"})
    for (const char* width : {"64", "256"})
      for (Ldc ldc : {Ldc::aligned, Ldc::unaligned}) {
        SCOPED_TRACE(std::string("splits ") + splits + ", tile width " + width + ", aligned ldc " +
                     std::to_string(ldc == Ldc::aligned));
        ::setenv("PORTKERN_WGMMA_SPLITS", splits, 1);
        ::setenv("PORTKERN_WGMMA_KERNEL", width, 1);
        for (const HalfCase& s : shapes)
          check_cases(
              Lds::multiple_of_8,
              [&](const std::string& kernel, float) { EXPECT_EQ(contains(kernel, "_split"), s.k > 64) << kernel; },
              std::span(&s, 1), ldc, scalings);
      }
  ::unsetenv("PORTKERN_WGMMA_KERNEL");
  ::unsetenv("PORTKERN_WGMMA_SPLITS");
}

// k <= 32: depths of 1, 3, 16, 17, 27 and 32; 16-byte stores of C (ldc = m + 3 a multiple of 4) and single
// values (odd ldc), partial tiles of 128 rows and 32 columns; odd and aligned operand layouts.
TEST(GemmBf16Cuda, SmallKMatchesFloat64) {
  PORTKERN_REQUIRE_GPU();
  const HalfCase small[] = {{1, 1, 1}, {5, 513, 17}, {125, 40, 3}, {300, 70, 32}, {1, 37, 27}, {129, 33, 16}};
  ::setenv("PORTKERN_WGMMA_KERNEL", "small_k", 1);   // the default choice only for k <= 16 or n <= 32
  for (Lds lds : {Lds::odd, Lds::multiple_of_8})
    check_cases(lds, [](const std::string& kernel, float) { EXPECT_EQ(kernel, "small_k"); }, small);
  ::unsetenv("PORTKERN_WGMMA_KERNEL");
  Queue q(Device::cuda(0));
  HalfOperands<bfloat16> o = make_half_operands<bfloat16>({125, 40, 3}, false, false, false);
  EXPECT_EQ(run_on_gpu(q, {125, 40, 3}, false, false, 1.f, 0.f, o), "small_k");
}

// One row, B not transposed: the matrix-vector product, its k in one chunk of 4096 and in two (odd lengths), B
// read 8 values at a time (ldb a multiple of 8), in pairs (even ldb) and one value at a time (odd), with lengths
// that leave loads past the groups of four and values past the last whole load.
TEST(GemmBf16Cuda, GemvMatchesFloat64) {
  PORTKERN_REQUIRE_GPU();
  Queue q(Device::cuda(0));
  for (Lds lds : {Lds::odd, Lds::pairs, Lds::multiple_of_8})
    for (bool ta : {false, true})
      for (const HalfCase& s : {HalfCase{1, 1, 1}, HalfCase{1, 37, 61}, HalfCase{1, 300, 5001}, HalfCase{1, 9, 4096},
                                HalfCase{1, 70, 1283}})
        for (const auto& [alpha, beta] : {std::pair{1.f, 0.f}, std::pair{-0.75f, 0.5f}}) {
          SCOPED_TRACE("n=" + std::to_string(s.n) + " k=" + std::to_string(s.k) + " ta=" + std::to_string(ta) +
                       " beta=" + std::to_string(beta) + " odd lds=" + std::to_string(lds == Lds::odd));
          HalfOperands<bfloat16> o = make_half_operands<bfloat16>(s, ta, false, beta != 0.f, lds);
          EXPECT_EQ(run_on_gpu(q, s, ta, false, alpha, beta, o), "gemv");
          expect_half_product(s, ta, false, alpha, beta, o);
        }
  // One column with A transposed (its rows contiguous): the transposed product's matrix-vector product.
  for (Lds lds : {Lds::odd, Lds::pairs, Lds::multiple_of_8})
    for (const HalfCase& s : {HalfCase{37, 1, 61}, HalfCase{300, 1, 5001}, HalfCase{70, 1, 1283}})
      for (const auto& [alpha, beta] : {std::pair{1.f, 0.f}, std::pair{-0.75f, 0.5f}}) {
        SCOPED_TRACE("m=" + std::to_string(s.m) + " k=" + std::to_string(s.k) + " beta=" + std::to_string(beta) +
                     " odd lds=" + std::to_string(lds == Lds::odd));
        HalfOperands<bfloat16> o = make_half_operands<bfloat16>(s, true, false, beta != 0.f, lds);
        EXPECT_EQ(run_on_gpu(q, s, true, false, alpha, beta, o), "gemv_swapped");
        expect_half_product(s, true, false, alpha, beta, o);
      }
}

// IEEE half inputs through every kernel (forced), each transpose, aligned and odd leading dimensions.
TEST(GemmFp16Cuda, EveryKernelMatchesFloat64) {
  PORTKERN_REQUIRE_GPU();
  Queue q(Device::cuda(0));
  const HalfCase shapes[] = {{1, 37, 61}, {67, 45, 33}, {131, 263, 509}, {125, 40, 16}};
  for (const char* kernel : {"64", "128", "256", "small_k", "gemv", "simt"}) {
    if (!hopper() && std::isdigit(kernel[0])) continue;
    ::setenv("PORTKERN_WGMMA_KERNEL", kernel, 1);
    for (Lds lds : {Lds::odd, Lds::multiple_of_8})
      for (bool ta : {false, true})
        for (bool tb : {false, true})
          for (const HalfCase& s : shapes) {
            const bool applies = std::string(kernel) == "gemv" ? s.m == 1 && !tb
                                 : std::string(kernel) == "small_k" ? s.k <= 32 : true;
            if (!applies) continue;
            SCOPED_TRACE(std::string(kernel) + " m=" + std::to_string(s.m) + " n=" + std::to_string(s.n) + " k=" +
                         std::to_string(s.k) + " ta=" + std::to_string(ta) + " tb=" + std::to_string(tb));
            HalfOperands<float16> o = make_half_operands<float16>(s, ta, tb, true, lds);
            const std::string ran = run_on_gpu(q, s, ta, tb, -0.75f, 0.5f, o);
            EXPECT_EQ(ran.find(std::isdigit(kernel[0]) ? std::string("wgmma_128x") + kernel : std::string(kernel)), 0u) << ran;
            expect_half_product(s, ta, tb, -0.75f, 0.5f, o);
          }
    ::unsetenv("PORTKERN_WGMMA_KERNEL");
  }
}

TEST(GemmBf16Cuda, FallbackMatchesFloat64) {
  PORTKERN_REQUIRE_GPU();
  ::setenv("PORTKERN_WGMMA_KERNEL", "simt", 1);
  check_cases(Lds::odd, [](const std::string& kernel, float) { EXPECT_EQ(kernel, "simt"); });
  ::unsetenv("PORTKERN_WGMMA_KERNEL");
}

// 30 problems of 300 x 290 (180 tiles of 128 x 256, more of narrower ones), A, B and C strided past their
// sizes; then the same with B shared by every problem (stride 0, which a tensor map cannot take: the producer's
// threads copy B). C written element by element (beta 2, C's stride 7 values past its size), and through the
// copy engine, stored (beta 0) and added (beta 1; C's leading dimension and stride multiples of 4 values).
TEST(GemmBf16Cuda, BatchesMatchFloat64) {
  PORTKERN_REQUIRE_GPU();
  Queue q(Device::cuda(0));
  const HalfCase s{300, 290, 100};
  for (const char* splits : {"", "2"})   // as the model chooses; k split in two (counters per problem)
  for (const float beta : {2.f, 0.f, 1.f})
    for (bool shared_b : {false, true})
      for (bool ta : {false, true}) {
        SCOPED_TRACE("ta=" + std::to_string(ta) + " shared_b=" + std::to_string(shared_b) +
                     " beta=" + std::to_string(beta) + " splits=" + splits);
        const bool c_by_engine = beta != 2.f;
        const std::int64_t batch = 30;
        std::vector<HalfOperands<bfloat16>> items;
        for (std::int64_t i = 0; i < batch; ++i) {
          items.push_back(make_half_operands<bfloat16>(s, ta, false, beta != 0.f, Lds::multiple_of_8,
                                                       c_by_engine ? Ldc::aligned : Ldc::unaligned));
          for (auto& x : items.back().a) x = bfloat16(float(x) * (1 + 0.01f * float(i)));   // each item its own A
        }
        if (shared_b)
          for (auto& item : items) item.b = items[0].b;
        const HalfOperands<bfloat16>& first = items[0];
        const HalfBatch<bfloat16> batched(items, 8, 16, c_by_engine ? 8 : 7, shared_b);
        Buffer<bfloat16> a(q.device(), std::int64_t(batched.a.size())), b(q.device(), std::int64_t(batched.b.size()));
        Buffer<float> c(q.device(), std::int64_t(batched.c.size()));
        a.upload(q, std::span<const bfloat16>(batched.a));
        b.upload(q, std::span<const bfloat16>(batched.b));
        c.upload(q, std::span<const float>(batched.c));
        ::setenv("PORTKERN_WGMMA_COPY", "threads", 1);   // not a pass first, whatever the model says
        if (*splits) ::setenv("PORTKERN_WGMMA_SPLITS", splits, 1);
        const std::string kernel = kernel_for(ta, false, s, a.data(), first.lda, b.data(), first.ldb, batched.stride_a,
                                              batched.stride_b, batch, {c.data(), first.ldc, batched.stride_c, beta});
        if (hopper()) EXPECT_EQ(kernel.rfind("wgmma_", 0), 0u) << kernel;
        if (hopper()) EXPECT_EQ(contains(kernel, "_b_by_threads"), shared_b) << kernel;
        if (hopper()) EXPECT_EQ(contains(kernel, "_c_by_threads"), !c_by_engine) << kernel;
        if (hopper() && *splits) EXPECT_TRUE(contains(kernel, "_split2")) << kernel;
        gemm_strided_batched(q, ta ? Op::trans : Op::none, Op::none, s.m, s.n, s.k, 0.5f, a.data(), first.lda,
                             batched.stride_a, b.data(), first.ldb, batched.stride_b, beta, c.data(), first.ldc,
                             batched.stride_c, batch);
        ::unsetenv("PORTKERN_WGMMA_COPY");
        ::unsetenv("PORTKERN_WGMMA_SPLITS");
        batched.expect(items, c.download(q), s, ta, false, 0.5f, beta);
      }
}

TEST(GemmBf16Cuda, QuickReturnsAndScaling) {
  PORTKERN_REQUIRE_GPU();
  Queue q(Device::cuda(0));
  const bfloat16* none = nullptr;
  Buffer<bfloat16> a(q.device(), 64), b(q.device(), 64);
  Buffer<float> c(q.device(), 16);
  q.fill(c.data(), 2.f, 16);
  gemm(q, Op::none, Op::none, 0, 4, 4, 1.f, a.data(), 4, b.data(), 4, 0.f, c.data(), 4);   // m == 0: untouched
  for (float x : c.download(q)) ASSERT_EQ(x, 2.f);
  gemm(q, Op::none, Op::none, 4, 4, 0, 1.f, none, 4, none, 4, 0.5f, c.data(), 4);   // k == 0: beta * C
  for (float x : c.download(q)) ASSERT_EQ(x, 1.f);
  q.fill(c.data(), std::nanf(""), 16);
  gemm(q, Op::none, Op::none, 4, 4, 4, 0.f, a.data(), 4, b.data(), 4, 0.f, c.data(), 4);   // alpha == 0, beta == 0
  for (float x : c.download(q)) ASSERT_EQ(x, 0.f);
}

}  // namespace
}  // namespace portkern::testing
