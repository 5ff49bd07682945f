// The portable Adam kernel: one element per item, groups of 64. The per-element step is a function shared
// with the native twin, so both do the same arithmetic in the same order.
#pragma once

#include <cstdint>

#include "portkern/kernel/math.hpp"
#include "portkern/kernel/model.hpp"
#include "portkern/kernel/private_array.hpp"
#include "portkern/ops/adam.hpp"

namespace portkern::ops::adam_impl {

// The constants of one call, checked by api.cpp.
struct Params {
  float lr, beta1, beta2, eps, grad_scale, decay;
  int steps;
};

// One element's constants of a call: the scaled gradient's terms of m and v.
struct Gradient {
  float gm, gv;
};
PORTKERN_INLINE Gradient gradient_terms(const Params& c, float g) {
  const float gh = g / c.grad_scale;
  return {(1.f - c.beta1) * gh, (1.f - c.beta2) * gh * gh};
}

// Inner step t of one element (p, m, v), with b1t = beta1^t and b2t = beta2^t.
template <AdamMode Mode>
PORTKERN_INLINE void step(const Params& c, float b1t, float b2t, const Gradient& d, float& p, float& m, float& v) {
  m = c.beta1 * m + d.gm;
  v = c.beta2 * v + d.gv;
  const float mh = m / (1.f - b1t), vh = v / (1.f - b2t);
  float denom;
  if constexpr (Mode == AdamMode::eps_inside_sqrt) denom = kernel::sqrt(vh + c.eps);
  else denom = kernel::sqrt(vh) + c.eps;
  p = p - c.lr * (mh / denom + c.decay * p);
}

// Runs the `steps` inner steps on one element (p, m, v in registers): the native twin's loop.
template <AdamMode Mode>
PORTKERN_INLINE void update(const Params& c, float& p_io, float& m_io, float& v_io, float g) {
  const Gradient d = gradient_terms(c, g);
  float p = p_io, m = m_io, v = v_io;
  float b1t = 1.f, b2t = 1.f;   // beta^t as running products
  for (int t = 1; t <= c.steps; ++t) {
    b1t *= c.beta1;
    b2t *= c.beta2;
    step<Mode>(c, b1t, b2t, d, p, m, v);
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
    // A uniform branch: only the last group has items past the end (the CPU vectorises the unchecked phase).
    if ((grp.x() + 1) * Items <= count) phase<false>(grp);
    else phase<true>(grp);
  }

  // The steps loop outside the items (uniform: beta^t is the same for every item) and one phase per step
  // inside it, with p, m, v in private arrays: on CUDA registers, the same code as a loop inside each thread;
  // on the CPU the items are the SIMD lanes of every step (a loop inside the item would keep them scalar).
  template <bool Checked, class Group>
  PORTKERN_INLINE void phase(Group& grp) const {
    const std::int64_t base = grp.x() * Items;
    kernel::private_array<float, 5, Group> s;   // p, m, v, and the gradient's terms gm, gv
    grp.for_each_item([&](kernel::Item item) {
      const std::int64_t i = Checked && base + item.x >= count ? count - 1 : base + item.x;   // clamped
      const Gradient d = gradient_terms(c, g[i]);
      s(item, 0) = p[i], s(item, 1) = m[i], s(item, 2) = v[i], s(item, 3) = d.gm, s(item, 4) = d.gv;
    });
    float b1t = 1.f, b2t = 1.f;   // beta^t as running products
    for (int t = 1; t <= c.steps; ++t) {
      b1t *= c.beta1;
      b2t *= c.beta2;
      grp.for_each_item([&](kernel::Item item) {
        step<Mode>(c, b1t, b2t, Gradient{s(item, 3), s(item, 4)}, s(item, 0), s(item, 1), s(item, 2));
      });
    }
    grp.for_each_item([&](kernel::Item item) {
      const std::int64_t i = base + item.x;
      if (!Checked || i < count) p[i] = s(item, 0), m[i] = s(item, 1), v[i] = s(item, 2);
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
