// In-L1 throughput of first-layer tiles (3x3x3 windows), the counts behind the patch-row kernels: g++ -O3
// -march=x86-64-v4 -std=c++20 l1-tiles.cpp; best of 25 calls each. direct MVxNC: filters on lanes (a broadcast FMA
// per pixel, constant addresses); pix PxOC: pixels on lanes, filters broadcast (no transpose counted).
#include <immintrin.h>
#include <chrono>
#include <cstdio>
using i64 = long long;
alignas(64) static float img[3][8192];
alignas(64) static float W[27 * 32];
alignas(64) static float out[64 * 1024];
// OC on lanes, taps compile-time, columns CS floats apart: MV vectors x NC pixels.
template <int MV, int NC, int CS>
__attribute__((noinline)) void direct(int tiles, float* o) {
  for (int t = 0; t < tiles; ++t) {
    const int x0 = (t % 8) * NC * CS;
    const float* w = W;
    asm("" : "+r"(w));
    __m512 acc[MV][NC];
#pragma GCC unroll 32
    for (int j = 0; j < NC; ++j)
#pragma GCC unroll 4
      for (int v = 0; v < MV; ++v) acc[v][j] = _mm512_setzero_ps();
#pragma GCC unroll 3
    for (int ky = 0; ky < 3; ++ky) {
      const float* row = img[ky] + x0;
      asm("" : "+r"(row));
#pragma GCC unroll 9
      for (int q = 0; q < 9; ++q) {
        __m512 a[MV];
#pragma GCC unroll 4
        for (int v = 0; v < MV; ++v) a[v] = _mm512_load_ps(w + ((ky * 9 + q) * MV + v) * 16);
        const float* rq = row + q;
        asm("" : "+r"(rq));
#pragma GCC unroll 32
        for (int j = 0; j < NC; ++j) {
          const __m512 b = _mm512_set1_ps(rq[j * CS]);
#pragma GCC unroll 4
          for (int v = 0; v < MV; ++v) acc[v][j] = _mm512_fmadd_ps(a[v], b, acc[v][j]);
        }
      }
    }
    float* c = o + (t % 8) * NC * MV * 16;
#pragma GCC unroll 32
    for (int j = 0; j < NC; ++j)
#pragma GCC unroll 4
      for (int v = 0; v < MV; ++v) _mm512_storeu_ps(c + (j * MV + v) * 16, acc[v][j]);
  }
}
// Pixels on lanes: P vectors of 16 pixels x OC channels, planar input (tap rows), W broadcast.
template <int P, int OC>
__attribute__((noinline)) void pix(int tiles, float* o) {
  for (int t = 0; t < tiles; ++t) {
    const int x0 = (t % 8) * 16 * P;
    const float* w = W;
    asm("" : "+r"(w));
    __m512 acc[OC][P];
#pragma GCC unroll 16
    for (int c = 0; c < OC; ++c)
#pragma GCC unroll 4
      for (int q = 0; q < P; ++q) acc[c][q] = _mm512_setzero_ps();
#pragma GCC unroll 3
    for (int ky = 0; ky < 3; ++ky) {
      const float* row = img[ky] + x0;
      asm("" : "+r"(row));
#pragma GCC unroll 9
      for (int tap = 0; tap < 9; ++tap) {
        __m512 x[P];
#pragma GCC unroll 4
        for (int q = 0; q < P; ++q) x[q] = _mm512_loadu_ps(row + tap * 512 + 16 * q);
#pragma GCC unroll 16
        for (int c = 0; c < OC; ++c) {
          const __m512 wv = _mm512_set1_ps(w[(ky * 9 + tap) * 16 + c]);
#pragma GCC unroll 4
          for (int q = 0; q < P; ++q) acc[c][q] = _mm512_fmadd_ps(x[q], wv, acc[c][q]);
        }
      }
    }
    float* d = o + (t % 8) * OC * P * 16;
#pragma GCC unroll 16
    for (int c = 0; c < OC; ++c)
#pragma GCC unroll 4
      for (int q = 0; q < P; ++q) _mm512_storeu_ps(d + (c * P + q) * 16, acc[c][q]);
  }
}
__attribute__((noinline)) void peak(int iters, float* o) {
  __m512 acc[24];
  __m512 x = _mm512_set1_ps(1.0001f), y = _mm512_set1_ps(0.9999f);
  for (int j = 0; j < 24; ++j) acc[j] = _mm512_setzero_ps();
  for (int i = 0; i < iters; ++i)
#pragma GCC unroll 24
    for (int j = 0; j < 24; ++j) acc[j] = _mm512_fmadd_ps(x, y, acc[j]);
  for (int j = 0; j < 24; ++j) _mm512_storeu_ps(o + 16 * j, acc[j]);
}
template <class F>
double time_it(F f, double flops) {
  double best = 1e30;
  for (int r = 0; r < 25; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    f();
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (s < best) best = s;
  }
  return flops / best * 1e-9;
}
#define D(MV, NC, CS) printf("direct %dx%-2d cs%d %.1f\n", MV, NC, CS, time_it([] { direct<MV, NC, CS>(T, out); }, T * 27.0 * MV * NC * 32));
#define P(P_, OC) printf("pix    %dx%-2d     %.1f\n", P_, OC, time_it([] { pix<P_, OC>(T, out); }, T * 27.0 * P_ * OC * 32));
constexpr int T = 100000;
int main() {
  for (auto& r : img) for (auto& v : r) v = 0.001f;
  for (auto& v : W) v = 0.001f;
  printf("peak   %.1f\n", time_it([] { peak(1000000, out); }, 1000000.0 * 24 * 32));
  D(1, 12, 6) D(1, 16, 6) D(1, 24, 6) D(1, 28, 6) D(1, 30, 6) D(2, 12, 6) D(2, 14, 6) D(1, 16, 3) D(1, 28, 3)
  P(1, 16) P(2, 12) P(2, 8) P(3, 8) P(4, 6)
}
