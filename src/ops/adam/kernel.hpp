// The portable Adam kernel: one element per item, groups of 64. The per-element update (all `steps` inner
// steps, state in registers) is a function shared with the native twin, so both do the same arithmetic.
#pragma once

#include <cstdint>

#include "portkern/kernel/math.hpp"
#include "portkern/kernel/model.hpp"
#include "portkern/ops/adam.hpp"

namespace portkern::ops::adam_impl {

// The constants of one call, checked by api.cpp.
struct Params {
  float lr, beta1, beta2, eps, grad_scale, decay;
  int steps;
};

// Runs the `steps` inner steps on one element (p, m, v in registers).
template <AdamMode Mode>
PORTKERN_INLINE void update(const Params& c, float& p_io, float& m_io, float& v_io, float g) {
  const float gh = g / c.grad_scale;
  const float gm = (1.f - c.beta1) * gh, gv = (1.f - c.beta2) * gh * gh;
  float p = p_io, m = m_io, v = v_io;
  float b1t = 1.f, b2t = 1.f;   // beta^t as running products
  for (int t = 1; t <= c.steps; ++t) {
    b1t *= c.beta1;
    b2t *= c.beta2;
    m = c.beta1 * m + gm;
    v = c.beta2 * v + gv;
    const float mh = m / (1.f - b1t), vh = v / (1.f - b2t);
    float denom;
    if constexpr (Mode == AdamMode::eps_inside_sqrt) denom = kernel::sqrt(vh + c.eps);
    else denom = kernel::sqrt(vh) + c.eps;
    p = p - c.lr * (mh / denom + c.decay * p);
  }
  p_io = p;
  m_io = m;
  v_io = v;
}

template <AdamMode Mode, int Items = 64>
struct AdamKernel {
  using group_shape = kernel::Shape<Items>;
  Params c;
  std::int64_t count;
  float* p;
  float* m;
  float* v;
  const float* g;

  template <class Group>
  PORTKERN_KERNEL void operator()(Group& grp) const {
    const std::int64_t base = grp.x() * Items;
    grp.for_each_item([&](kernel::Item item) {
      const std::int64_t i = base + item.x;
      if (i < count) {
        float pi = p[i], mi = m[i], vi = v[i];
        update<Mode>(c, pi, mi, vi, g[i]);
        p[i] = pi;
        m[i] = mi;
        v[i] = vi;
      }
    });
  }
};

template <class Backend>
void run(Queue& queue, const Params& c, AdamMode mode, std::int64_t count, float* p, float* m, float* v,
         const float* g) {
  const kernel::Range groups{(count + 63) / 64};
  if (mode == AdamMode::adamw)
    Backend::launch(queue, groups, AdamKernel<AdamMode::adamw>{c, count, p, m, v, g});
  else
    Backend::launch(queue, groups, AdamKernel<AdamMode::eps_inside_sqrt>{c, count, p, m, v, g});
}

}  // namespace portkern::ops::adam_impl
