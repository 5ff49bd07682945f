// meanshift's reference (one iteration in float64), the synthetic data set that replaces HeCBench's
// data.csv / centroids.csv (3 Gaussian blobs and their centres), and the spec's centroid check.
#pragma once

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace portkern::ops::meanshift_impl {

inline std::vector<double> reference(std::int64_t n, const std::vector<float>& in, double sigma, double radius2) {
  std::vector<double> out(std::size_t(3 * n));
  for (std::int64_t i = 0; i < n; ++i) {
    double s[4] = {0, 0, 0, 0};
    for (std::int64_t j = 0; j < n; ++j) {
      double d2 = 0;
      for (int k = 0; k < 3; ++k) {
        const double d = double(in[std::size_t(3 * i + k)]) - double(in[std::size_t(3 * j + k)]);
        d2 += d * d;
      }
      if (d2 > radius2) continue;
      const double w = std::exp(-d2 / (2 * sigma * sigma));
      for (int k = 0; k < 3; ++k) s[k] += w * double(in[std::size_t(3 * j + k)]);
      s[3] += w;
    }
    for (int k = 0; k < 3; ++k) out[std::size_t(3 * i + k)] = s[k] / s[3];
  }
  return out;
}

// The true centres of the synthetic data (pairwise ~30 apart, far beyond the radius sqrt(60) ~ 7.7).
inline std::vector<float> blob_centres() { return {-15.f, -10.f, 0.f, 0.f, 15.f, 10.f, 15.f, -10.f, -5.f}; }

// n points in 3 Gaussian blobs (std 1.5 per coordinate) around blob_centres(), point i in blob i % 3,
// mt19937(seed). Coordinates are rounded to multiples of 1/64, so squared distances near the radius are
// exact in f32 whatever the evaluation order (fma or not) and the radius test agrees with the reference.
inline std::vector<float> make_blobs(std::int64_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> noise(0.f, 1.5f);
  const auto c = blob_centres();
  std::vector<float> x(static_cast<std::size_t>(3 * n));
  for (std::int64_t i = 0; i < n; ++i)
    for (int k = 0; k < 3; ++k)
      x[std::size_t(3 * i + k)] = std::round((c[std::size_t(3 * (i % 3) + k)] + noise(rng)) * 64.f) / 64.f;
  return x;
}

// The spec's check: greedy centroids (a point starts a new one if its squared distance to every existing
// centroid exceeds radius2); passes with exactly 3 centroids, each within squared distance 10 of a true centre.
inline bool centroids_match(const std::vector<float>& points, double radius2) {
  std::vector<std::vector<double>> found;
  for (std::size_t i = 0; i + 2 < points.size(); i += 3) {
    bool near = false;
    for (const auto& f : found) {
      double d2 = 0;
      for (int k = 0; k < 3; ++k) d2 += (points[i + std::size_t(k)] - f[std::size_t(k)]) * (points[i + std::size_t(k)] - f[std::size_t(k)]);
      near = near || d2 <= radius2;
    }
    if (!near) found.push_back({points[i], points[i + 1], points[i + 2]});
  }
  if (found.size() != 3) return false;
  const auto c = blob_centres();
  for (const auto& f : found) {
    bool ok = false;
    for (int b = 0; b < 3; ++b) {
      double d2 = 0;
      for (int k = 0; k < 3; ++k) d2 += (f[std::size_t(k)] - c[std::size_t(3 * b + k)]) * (f[std::size_t(k)] - c[std::size_t(3 * b + k)]);
      ok = ok || d2 <= 10;
    }
    if (!ok) return false;
  }
  return true;
}

}  // namespace portkern::ops::meanshift_impl
