#include "bench/conv2d_operands.hpp"

#include <cmath>
#include <limits>
#include <random>

#include "bench/memory_check.hpp"
#include "portkern/checked.hpp"

namespace portkern::bench {

namespace {
// `d`, once its tensors are known to fit 64 bits and the machine's memory (host copies and device buffers).
const Conv2dDesc& fits(const Device& device, const Conv2dDesc& d) {
  const char* fn = "portkern bench conv2d";
  const std::int64_t input = checked_product({d.batch, d.in_h, d.in_w, d.in_c, 4}, fn, "the input's bytes");
  const std::int64_t filter = checked_product({d.window_h, d.window_w, d.in_c, d.out_c, 4}, fn, "the filter's bytes");
  const std::int64_t output = checked_product({d.batch, d.out_h, d.out_w, d.out_c, 4}, fn, "the output's bytes");
  check_fits_memory(device, 2.0 * double(input) + 2.0 * double(filter) + 2.0 * double(output), fn,
                    "the operands of batch " + std::to_string(d.batch) + " (input, filter, output and host copies)");
  return d;
}
}  // namespace

ConvOperands::ConvOperands(Queue& q, const Conv2dDesc& d)
    : q_(q),
      d_(fits(q.device(), d)),
      host_in_(std::size_t(d.batch * d.in_h * d.in_w * d.in_c)),
      host_f_(std::size_t(d.window_h * d.window_w * (d.in_c / d.groups) * d.out_c)),
      input_(q.device(), std::int64_t(host_in_.size())),
      filter_(q.device(), std::int64_t(host_f_.size())),
      output_(q.device(), d.batch * d.out_h * d.out_w * d.out_c) {
  std::mt19937 rng(unsigned(host_in_.size() + host_f_.size()));
  std::uniform_real_distribution<double> uniform(-1, 1);
  for (auto& x : host_in_) x = float(uniform(rng));
  for (auto& x : host_f_) x = float(uniform(rng));
  input_.upload(q, host_in_);
  filter_.upload(q, host_f_);
}

double conv_flops(const Conv2dDesc& d) {
  return 2.0 * d.batch * d.out_h * d.out_w * d.out_c * (d.in_c / d.groups) * d.window_h * d.window_w;
}

const Conv2dDesc& ConvOperands::with_epilogue() {
  if (!bias_) {
    std::mt19937 rng(unsigned(host_in_.size() + 3));
    std::uniform_real_distribution<double> uniform(-1, 1);
    host_bias_.resize(std::size_t(d_.out_c));
    host_residual_.resize(std::size_t(output_.size()));
    for (auto& x : host_bias_) x = float(uniform(rng));
    for (auto& x : host_residual_) x = float(uniform(rng));
    bias_ = std::make_unique<Buffer<float>>(q_.device(), d_.out_c);
    residual_ = std::make_unique<Buffer<float>>(q_.device(), output_.size());
    bias_->upload(q_, host_bias_);
    residual_->upload(q_, host_residual_);
    epilogue_d_ = d_;
    epilogue_d_.bias = bias_->data();
    epilogue_d_.residual = residual_->data();
    epilogue_d_.relu = true;
  }
  return epilogue_d_;
}

std::function<void()> ConvOperands::call(const Conv2dChoice& choice, bool epilogue) {
  const Conv2dDesc d = epilogue ? with_epilogue() : d_;
  if (choice.algorithm == "winograd" || choice.config.starts_with("winograd/")) {
    const int tile = choice.config == "winograd/f2" ? 2 : 4;
    auto w = std::make_shared<WinogradFilter>(winograd_transform_filter(q_, d.in_c, d.out_c, filter_.data(), tile));
    transformed_.push_back(w);
    return [this, d, w, precision = choice.precision] {
      conv2d_winograd(q_, d, input_.data(), *w, output_.data(), precision);
    };
  }
  if (conv2d_packs_filter(q_, choice)) {
    if (!packed_) packed_ = std::make_unique<Conv2dPackedFilter>(conv2d_pack_filter(q_, d, filter_.data()));
    return [this, d, choice] { conv2d(q_, d, input_.data(), *packed_, output_.data(), choice); };
  }
  return [this, d, choice] { conv2d(q_, d, input_.data(), filter_.data(), output_.data(), choice); };
}

void ConvOperands::poison() { q_.fill(output_.data(), std::numeric_limits<float>::quiet_NaN(), output_.size()); }

double ConvOperands::max_rel_error(bool epilogue) {
  const Conv2dDesc& d = d_;
  if (epilogue) with_epilogue();
  std::vector<float> got(std::size_t(output_.size()));
  q_.copy(got.data(), output_.data(), got.size());
  q_.wait();
  std::mt19937 rng(7);
  double worst = 0;
  for (int sample = 0; sample < 64; ++sample) {
    const std::int64_t n = rng() % d.batch, oy = rng() % d.out_h, ox = rng() % d.out_w, k = rng() % d.out_c;
    const std::int64_t group_in = d.in_c / d.groups, first_in = k / (d.out_c / d.groups) * group_in;
    double sum = 0, magnitude = 0;
    for (std::int64_t r = 0; r < d.window_h; ++r)
      for (std::int64_t s = 0; s < d.window_w; ++s) {
        const std::int64_t iy = oy * d.stride_h + r * d.dilation_h - d.pad_top;
        const std::int64_t ix = ox * d.stride_w + s * d.dilation_w - d.pad_left;
        if (iy < 0 || iy >= d.in_h || ix < 0 || ix >= d.in_w) continue;
        for (std::int64_t c = 0; c < group_in; ++c) {
          const double p = double(host_in_[std::size_t(((n * d.in_h + iy) * d.in_w + ix) * d.in_c + first_in + c)]) *
                           host_f_[std::size_t(((r * d.window_w + s) * group_in + c) * d.out_c + k)];
          sum += p;
          magnitude += std::abs(p);
        }
      }
    const std::size_t at = std::size_t(((n * d.out_h + oy) * d.out_w + ox) * d.out_c + k);
    if (epilogue) {
      sum = std::max(0.0, sum + host_bias_[std::size_t(k)] + host_residual_[at]);
      magnitude += std::abs(host_bias_[std::size_t(k)]) + std::abs(host_residual_[at]);
    }
    const double e = std::abs(double(got[at]) - sum) / std::max(magnitude, 1e-300);
    if (!(e <= worst)) worst = e;
  }
  return worst;
}

}  // namespace portkern::bench
