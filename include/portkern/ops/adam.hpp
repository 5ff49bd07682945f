// adam: the fused Adam step with loss scale and weight decay of HeCBench `adam` (apex FusedAdam style, seed
// 004), f32, in place. One call runs t = 1 .. steps with the SAME gradient (t restarts at 1 on every call;
// m and v carry over between calls):
//
//   gh = g / grad_scale
//   m <- beta1 m + (1 - beta1) gh          v <- beta2 v + (1 - beta2) gh^2
//   mh = m / (1 - beta1^t)                 vh = v / (1 - beta2^t)
//   denom = sqrt(vh + eps)   (mode eps_inside_sqrt, HeCBench's default)
//         = sqrt(vh) + eps   (mode adamw: the whole step equals torch.optim.AdamW(lr, betas, eps,
//                             weight_decay = decay) on grad g / grad_scale with a fresh step counter)
//   p <- p - lr (mh / denom + decay p)
//
// Compute/latency-bound: 28 bytes per element per call (p, m, v, g read; p, m, v written) against
// 13 flops per element per inner step (division and sqrt counted as 1 flop each; the spec's default, 10k
// elements x 200 steps, is 26 MFLOP per call on 10k threads, so the dependent chain of each element sets the
// time). Decisions:
// - one element per item, groups of 64 (157 groups for 10k elements: more SMs busy than 256-wide blocks);
//   g / grad_scale and gh^2 are computed once per element, not once per step;
// - beta^t is carried as a running product (one multiply per step instead of the original's two powf);
//   it is exact to ~t ulp, far inside the tolerance. Divisions and sqrt are IEEE (no fast math: the
//   spec notes fast math broke HeCBench's check);
// - steps = 0 and count = 0 return at once; beta1, beta2 must lie in [0, 1) (beta = 1 divides by 0).
#pragma once

#include <cstdint>

#include "portkern/runtime/queue.hpp"

namespace portkern::ops {

enum class AdamMode : int {
  eps_inside_sqrt = 0,   // denom = sqrt(vh + eps), HeCBench's default (mode 0)
  adamw = 1,             // denom = sqrt(vh) + eps (mode 1) == torch.optim.AdamW
};

struct AdamOptions {
  float lr = 1e-3f, beta1 = 0.9f, beta2 = 0.999f, eps = 1e-8f, grad_scale = 256.f, decay = 0.5f;
  int steps = 200;   // inner steps t = 1 .. steps with the same gradient
  AdamMode mode = AdamMode::eps_inside_sqrt;
};

// count >= 0 elements; p, m, v (updated in place) and g (read): the queue's device memory, count floats
// each, not overlapping. v must be >= 0 (it is a running mean of squares).
void adam(Queue& queue, std::int64_t count, float* p, float* m, float* v, const float* g,
          const AdamOptions& options = {});

}  // namespace portkern::ops
