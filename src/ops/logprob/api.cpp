#include <cstdint>
#include <string>
#include <vector>

#include "ops/logprob/backends.hpp"
#include "ops/logprob/kernel.hpp"
#include "portkern/checked.hpp"
#include "portkern/error.hpp"
#include "portkern/kernel/cpu.hpp"
#include "portkern/ops/logprob.hpp"

namespace portkern::ops {

namespace logprob_impl {
void portable_cpu(Queue& queue, const Args& args) { run<kernel::cpu::Backend>(queue, args); }
}  // namespace logprob_impl

void logprob(Queue& queue, std::int64_t batch, std::int64_t steps, std::int64_t vocab, std::int64_t padded_vocab,
             const float* logits, const int* ids, const int* lengths, float* log_probs, float* cum_log_probs) {
  const char* function = "portkern::ops::logprob";
  require(batch >= 0, function, "batch", batch, ">= 0");
  require(steps >= 1, function, "steps", steps, ">= 1");
  require(vocab >= 1, function, "vocab", vocab, ">= 1");
  require(padded_vocab >= vocab, function, "padded_vocab", padded_vocab, ">= vocab = " + std::to_string(vocab));
  checked_elements<float>({batch, steps, padded_vocab}, function, "the probabilities (batch * steps * padded_vocab)");
  if (batch == 0) return;
  queue.check_pointer(logits, function, "logits");
  queue.check_pointer(ids, function, "ids");
  queue.check_pointer(lengths, function, "lengths");
  queue.check_pointer(log_probs, function, "log_probs");
  queue.check_pointer(cum_log_probs, function, "cum_log_probs");
  // The lengths decide which rows are read: check them on the host (batch ints, one sync).
  std::vector<int> host(static_cast<std::size_t>(batch));
  queue.copy(host.data(), lengths, host.size());
  queue.wait();
  for (std::int64_t b = 0; b < batch; ++b)
    require(host[std::size_t(b)] >= 1 && host[std::size_t(b)] <= steps, function,
            "lengths[" + std::to_string(b) + "]", host[std::size_t(b)], "in [1, steps = " + std::to_string(steps) + "]");
  logprob_impl::Args a;
  a.batch = batch, a.steps = steps, a.vocab = vocab, a.padded = padded_vocab;
  a.logits = logits, a.ids = ids, a.lengths = lengths, a.log_probs = log_probs, a.cum = cum_log_probs;
  a.vectorized = reinterpret_cast<std::uintptr_t>(logits) % 16 == 0 && padded_vocab % 4 == 0;
  if (queue.device().is_cpu()) return logprob_impl::portable_cpu(queue, a);
#if PORTKERN_HAVE_CUDA
  logprob_impl::portable_cuda(queue, a);
#endif
}

}  // namespace portkern::ops
