// The thread-safety contract of runtime/queue.hpp under load: many threads calling conv2d (every algorithm)
// and gemm at once, on one shared queue and on a queue each, every result checked against the float64
// reference of the shared test beds (on the CPU, and on a GPU when there is one); and the queue's scratch
// memory: owned, reused, bounded, released.
// Under ThreadSanitizer (the `tsan` preset) the queues use one OpenMP thread each: libgomp is not
// instrumented, so its own synchronisation would be reported as races (docs/threading.md).
#include <algorithm>
#include <functional>
#include <thread>
#include <vector>

#include "conv2d_cases.hpp"
#include "gemm_cases.hpp"

namespace portkern {
namespace {

using testing::check_conv2d;
using testing::check_gemm;
using testing::conv_data;
using testing::gemm_cases;

#if defined(__SANITIZE_THREAD__)
constexpr int queue_threads = 1;
#else
constexpr int queue_threads = 2;
#endif
constexpr int caller_threads = 8;

// One configuration of every conv2d algorithm (the first deployed tiled one).
std::vector<Conv2dChoice> one_choice_per_algorithm(const Device& device) {
  std::vector<Conv2dChoice> choices = {{"direct", "direct/default"}, {"im2col", "im2col/whole"},
                                       {"im2col", "im2col/chunked"}, {"gemm_1x1", "gemm_1x1/default"},
                                       {"winograd", "winograd/f2"},   {"winograd", "winograd/f4"}};
  for (const Conv2dChoice& c : conv2d_space(device, true))
    if (c.algorithm == "tiled") {
      choices.push_back(c);
      break;
    }
  return choices;
}

// The deployment's choice, then each family the device deploys.
std::vector<GemmChoice> gemm_choices(const Device& device) {
  std::vector<GemmChoice> choices = {{}};
  for (const std::string& family : gemm_deployment(device).families) choices.push_back({family, ""});
  return choices;
}

// Thread t's work: every conv2d algorithm on every case it applies to, then GEMMs in float and double with
// the deployment's choice and with each family, each thread starting at a different point so that different
// algorithms and sizes overlap in time.
void work(Queue& queue, int t) {
  const auto choices = one_choice_per_algorithm(queue.device());
  const auto& convs = conv_data();
  for (std::size_t i = 0; i < choices.size(); ++i) {
    const Conv2dChoice& choice = choices[(i + std::size_t(t)) % choices.size()];
    for (std::size_t j = 0; j < convs.size(); ++j) check_conv2d(queue, convs[(j + std::size_t(t)) % convs.size()], choice);
  }
  const auto gemms = gemm_cases();
  const auto families = gemm_choices(queue.device());
  for (std::size_t j = std::size_t(t) % 3; j < gemms.size(); j += 3) {
    const GemmChoice& choice = families[(j + std::size_t(t)) % families.size()];
    if (j % 2) check_gemm<float>(queue, gemms[j], choice);
    else check_gemm<double>(queue, gemms[j], choice);
  }
}

void run_threads(const std::function<void(int)>& body) {
  conv_data();   // the references, computed once before the threads start
  std::vector<std::thread> threads;
  for (int t = 0; t < caller_threads; ++t) threads.emplace_back(body, t);
  for (auto& thread : threads) thread.join();
}

// Threads sharing one queue of `device`; then its scratch: each block was leased by one call at a time, so at
// most one per thread, each at most 5/4 of the largest request (the largest im2col patch matrix, or Winograd
// filter plus tiles, of the cases).
void threads_share_one_queue(const Device& device) {
  Queue queue(device, queue_threads);
  run_threads([&](int t) { work(queue, t); });
  std::size_t largest = 0;
  for (const auto& x : conv_data()) {
    const Conv2dDesc& d = x.d;
    const std::size_t patches = std::size_t(d.batch * d.out_h * d.out_w * d.window_h * d.window_w * d.in_c);
    const std::size_t tiles = std::size_t(d.batch * ((d.out_h + 1) / 2) * ((d.out_w + 1) / 2));
    const std::size_t winograd = std::size_t(36 * d.in_c * d.out_c) + tiles * std::size_t(36 * (d.in_c + d.out_c));
    largest = std::max({largest, patches, winograd});
  }
  EXPECT_GT(queue.scratch_bytes(), 0u);
  EXPECT_LE(queue.scratch_bytes(), std::size_t(caller_threads) * (largest * sizeof(float) * 5 / 4 + 1));
}

void threads_each_with_a_queue(const Device& device) {
  run_threads([&](int t) {
    Queue queue(device, queue_threads);
    work(queue, t);
  });
}

TEST(Concurrency, ThreadsShareOneQueue) { threads_share_one_queue(Device::cpu()); }
TEST(Concurrency, ThreadsEachWithAQueue) { threads_each_with_a_queue(Device::cpu()); }

// The same on a GPU (skipped without one): calls from several threads go to one stream in any order.
TEST(Concurrency, ThreadsShareOneGpuQueue) {
  PORTKERN_REQUIRE_GPU();
  threads_share_one_queue(Device::cuda(0));
}
TEST(Concurrency, ThreadsEachWithAGpuQueue) {
  PORTKERN_REQUIRE_GPU();
  threads_each_with_a_queue(Device::cuda(0));
}

TEST(Concurrency, ScratchIsOwnedByTheQueueAndReleased) {
  const testing::ConvData* patches = nullptr;   // a case im2col applies to
  for (const auto& x : conv_data())
    if (conv2d_supports(Device::cpu(), x.d, {"im2col", "im2col/whole"})) patches = &x;
  ASSERT_NE(patches, nullptr);
  const Conv2dDesc& d = patches->d;
  const std::size_t request = std::size_t(d.batch * d.out_h * d.out_w * d.window_h * d.window_w * d.in_c) * sizeof(float);

  Queue queue(Device::cpu(), queue_threads);
  EXPECT_EQ(queue.scratch_bytes(), 0u);
  ASSERT_TRUE(check_conv2d(queue, *patches, {"im2col", "im2col/whole"}));
  const std::size_t held = queue.scratch_bytes();
  EXPECT_GE(held, request);
  EXPECT_LE(held, request * 5 / 4);
  ASSERT_TRUE(check_conv2d(queue, *patches, {"im2col", "im2col/whole"}));
  EXPECT_EQ(queue.scratch_bytes(), held);   // reused, not grown
  ASSERT_TRUE(check_conv2d(queue, *patches, {"direct", "direct/default"}));
  EXPECT_EQ(queue.scratch_bytes(), held);   // direct needs none
  queue.release_scratch();
  EXPECT_EQ(queue.scratch_bytes(), 0u);

  // Fifty queues each running one im2col convolution: each frees its scratch when it goes (ASan's leak
  // check sees any block that is not).
  for (int i = 0; i < 50; ++i) {
    Queue q(Device::cpu(), 1);
    ASSERT_TRUE(check_conv2d(q, *patches, {"im2col", "im2col/whole"}));
    EXPECT_GE(q.scratch_bytes(), request);
  }

  Queue moved(std::move(queue));
  EXPECT_PORTKERN_ERROR(queue.scratch_pool(), "moved from");
  EXPECT_EQ(queue.scratch_bytes(), 0u);
  ASSERT_TRUE(check_conv2d(moved, *patches, {"im2col", "im2col/whole"}));
}

}  // namespace
}  // namespace portkern
