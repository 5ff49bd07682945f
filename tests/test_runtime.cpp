// The runtime on the CPU: devices, buffers, queues, timers, and the errors bad input gets.
#include <cmath>

#include "testing.hpp"

namespace portkern {
namespace {

TEST(Runtime, CpuIsTheFirstDevice) {
  const auto all = devices();
  ASSERT_FALSE(all.empty());
  EXPECT_TRUE(all.front().is_cpu());
  EXPECT_EQ(all.front().name(), "cpu");
  const DeviceProperties& p = all.front().properties();
  EXPECT_FALSE(p.name.empty());
  EXPECT_GE(p.compute_units, 1);
  EXPECT_GT(p.memory_bytes, 0u);
  EXPECT_GE(p.simd_width_fp32, 4);
}

TEST(Runtime, ParsesDeviceNames) {
  EXPECT_EQ(Device::parse("cpu"), Device::cpu());
  EXPECT_PORTKERN_ERROR(Device::parse("tpu"), "argument name = tpu");
  EXPECT_PORTKERN_ERROR(Device::parse("cuda:x"), "argument name = cuda:x");
  EXPECT_PORTKERN_ERROR(Device::parse("cuda:99"), "argument index = 99");
  EXPECT_PORTKERN_ERROR(Device::cuda(-1), "argument index = -1");
}

// Well-formed measurements only: a unit test asserts no timing or throughput (a loaded machine is slow).
TEST(Runtime, MeasuresCeilings) {
  const Ceilings& c = measure_ceilings(Device::cpu());
  for (double measured : {c.gflops_fp32, c.gflops_fp64, c.copy_gbs}) {
    EXPECT_TRUE(std::isfinite(measured)) << measured;
    EXPECT_GT(measured, 0.0);
  }
  EXPECT_EQ(&c, &measure_ceilings(Device::cpu()));  // measured once
}

TEST(Runtime, BufferCopiesAndFills) {
  Queue q;
  const auto host = testing::random_vector<float>(1001, 1);
  Buffer<float> a(Device::cpu(), 1001), b(Device::cpu(), 1001);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(a.data()) % 64, 0u);
  a.upload(q, host);
  q.copy(b.data(), a.data(), a.size());
  EXPECT_EQ(b.download(q), host);
  q.fill(b.data(), 2.5f, 1000);
  const auto filled = b.download(q);
  for (std::size_t i = 0; i < 1000; ++i) ASSERT_EQ(filled[i], 2.5f);
  EXPECT_EQ(filled[1000], host[1000]);   // nothing past `count`

  Buffer<double> d(Device::cpu(), 3);
  q.fill(d.data(), -1.25, 3);
  EXPECT_EQ(d.download(q), (std::vector<double>{-1.25, -1.25, -1.25}));
}

TEST(Runtime, BufferMovesOwnership) {
  Buffer<int> a(Device::cpu(), 10);
  int* p = a.data();
  Buffer<int> b(std::move(a));
  EXPECT_EQ(b.data(), p);
  EXPECT_EQ(a.data(), nullptr);
  Buffer<int> c;
  c = std::move(b);
  EXPECT_EQ(c.data(), p);
  EXPECT_EQ(c.size(), 10u);
}

TEST(Runtime, BadSizesAndPointersAreErrors) {
  EXPECT_PORTKERN_ERROR(Buffer<float>(Device::cpu(), 0), "argument count = 0 must be > 0");
  EXPECT_PORTKERN_ERROR(Buffer<float>(Device::cpu(), -5), "argument count = -5");
  EXPECT_PORTKERN_ERROR(Buffer<float>(Device::cpu(), std::int64_t(1) << 50), "cannot allocate");
  EXPECT_PORTKERN_ERROR(Queue(Device::cpu(), -1), "argument cpu_threads = -1");
  Queue q;
  float x = 1;
  EXPECT_PORTKERN_ERROR(q.copy<float>(nullptr, &x, 1), "argument dst = nullptr");
  EXPECT_PORTKERN_ERROR(q.copy<float>(&x, nullptr, 1), "argument src = nullptr");
  EXPECT_PORTKERN_ERROR(q.fill<float>(nullptr, 1.f, 1), "argument dst = nullptr");
  q.copy<float>(nullptr, nullptr, 0);   // nothing to copy: no error
}

TEST(Runtime, TimerMeasuresHostWork) {
  Queue q;
  Timer t(q);
  t.start();
  volatile double sink = 0;
  for (int i = 0; i < 200000; ++i) sink = sink + std::sqrt(double(i));
  t.stop();
  EXPECT_TRUE(std::isfinite(t.elapsed_ms()));
  EXPECT_GT(t.elapsed_ms(), 0.0);
}

TEST(Runtime, ErrorsNameFunctionArgumentAndValue) {
  try {
    require(false, "portkern::gemm", "lda", 3, ">= max(1, m) = 5");
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "portkern::gemm: argument lda = 3 must be >= max(1, m) = 5");
  }
}

}  // namespace
}  // namespace portkern
