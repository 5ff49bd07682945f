// The runtime on a GPU: properties, memory, copies both ways, fill, timers, and memory of one device given
// to another device's queue.
#include <cmath>

#include "testing.hpp"

namespace portkern {
namespace {

TEST(CudaRuntime, ListsTheGpu) {
  PORTKERN_REQUIRE_GPU();
  const auto all = devices();
  ASSERT_GE(all.size(), 2u);
  EXPECT_EQ(all[1].name(), "cuda:0");
  EXPECT_EQ(Device::parse("cuda:0"), Device::cuda(0));
  const DeviceProperties& p = Device::cuda(0).properties();
  EXPECT_GT(p.compute_units, 0);
  EXPECT_GT(p.memory_bytes, 1ull << 30);
  EXPECT_TRUE(std::isfinite(p.peak_gflops_fp32));
  EXPECT_GE(p.peak_gflops_fp32, 0.0);   // 0: an architecture whose lanes per SM the runtime does not know
  // Well-formed measurements only: a unit test asserts no timing or throughput.
  const Ceilings& c = measure_ceilings(Device::cuda(0));
  for (double measured : {c.copy_gbs, c.gflops_fp32}) {
    EXPECT_TRUE(std::isfinite(measured)) << measured;
    EXPECT_GT(measured, 0.0);
  }
}

TEST(CudaRuntime, CopiesFillsAndTimes) {
  PORTKERN_REQUIRE_GPU();
  Queue q(Device::cuda(0));
  const auto host = testing::random_vector<float>(100003, 3);
  Buffer<float> a(q.device(), 100003), b(q.device(), 100003);
  a.upload(q, host);
  Timer t(q);
  t.start();
  q.copy(b.data(), a.data(), a.size());
  t.stop();
  EXPECT_GE(t.elapsed_ms(), 0.0);
  EXPECT_EQ(b.download(q), host);
  q.fill(b.data(), 3.5f, 100000);
  const auto filled = b.download(q);
  EXPECT_EQ(filled[99999], 3.5f);
  EXPECT_EQ(filled[100000], host[100000]);
  Buffer<double> d(q.device(), 5);
  q.fill(d.data(), -2.0, 5);
  EXPECT_EQ(d.download(q), std::vector<double>(5, -2.0));
}

TEST(CudaRuntime, WrongDeviceMemoryIsAnError) {
  PORTKERN_REQUIRE_GPU();
  Queue gpu(Device::cuda(0)), cpu;
  Buffer<float> on_gpu(gpu.device(), 64), on_cpu(Device::cpu(), 64);
  EXPECT_PORTKERN_ERROR(transpose(cpu, 8, 8, on_gpu.data(), 8, on_cpu.data(), 8), "argument in is memory of cuda:0");
  EXPECT_PORTKERN_ERROR(transpose(gpu, 8, 8, on_gpu.data(), 8, on_cpu.data(), 8), "argument out is host memory");
  EXPECT_PORTKERN_ERROR(cpu.copy(on_cpu.data(), on_gpu.data(), 64), "argument src is memory of cuda:0");
}

TEST(CudaRuntime, AllocationBeyondTheDeviceIsAnError) {
  PORTKERN_REQUIRE_GPU();
  const auto too_much = std::int64_t(Device::cuda(0).properties().memory_bytes / sizeof(float)) + 1024;
  EXPECT_PORTKERN_ERROR(Buffer<float>(Device::cuda(0), too_much), "cannot allocate");
  // The failed allocation leaves the device usable.
  Buffer<float> fine(Device::cuda(0), 1024);
  EXPECT_NE(fine.data(), nullptr);
}

}  // namespace
}  // namespace portkern
