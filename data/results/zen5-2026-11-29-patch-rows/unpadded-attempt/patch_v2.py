p='/work/wt-stems/src/conv2d/im2col/in_place.cpp'
s=open(p).read()

# 1. RowKernels gains the tile width.
old='''struct RowKernels {
  kernel::cpu::PatchRowKernel<float> full = nullptr, last = nullptr;   // of the panels but the last; of the last
  i64 panels = 0, mr = 0, lanes = 0;
  int last_rows = 0;   // in the last panel's last vector
};'''
new='''struct RowKernels {
  kernel::cpu::PatchRowKernel<float> full = nullptr, last = nullptr;   // of the panels but the last; of the last
  i64 panels = 0, mr = 0, lanes = 0;
  int last_rows = 0;   // in the last panel's last vector
  i64 cols = 0;        // the fewest columns a call takes (the wider of the two kernels' tiles)
};'''
assert old in s; s=s.replace(old,new)
old='''  auto kernel = [&](i64 vectors) -> kernel::cpu::PatchRowKernel<float> {
    if (vectors > kernel::cpu::max_row_vectors || a.out_w < set->blocking.patch_row_nr[vectors - 1]) return nullptr;
    return set->patch_row_kernel(vectors, a.stride_w * p.channels);
  };
  RowKernels k{kernel(full_vectors), kernel(last_vectors), panels, l.mr, lanes,
               int(l.m - (l.m - 1) / lanes * lanes)};
  if (!k.last || (panels > 1 && !k.full)) return {};
  if (!k.full) k.full = k.last;
  return k;'''
new='''  auto kernel = [&](i64 vectors) -> kernel::cpu::PatchRowKernel<float> {
    if (vectors > kernel::cpu::max_row_vectors || a.out_w < set->blocking.patch_row_nr[vectors - 1]) return nullptr;
    return set->patch_row_kernel(vectors, a.stride_w * p.channels);
  };
  RowKernels k{kernel(full_vectors), kernel(last_vectors), panels, l.mr, lanes,
               int(l.m - (l.m - 1) / lanes * lanes), set->blocking.patch_row_nr[last_vectors - 1]};
  if (!k.last || (panels > 1 && !k.full)) return {};
  if (panels > 1) k.cols = std::max<i64>(k.cols, set->blocking.patch_row_nr[full_vectors - 1]);
  if (!k.full) k.full = k.last;
  return k;'''
assert old in s; s=s.replace(old,new)

# 2. The unpadded multiply: interior by the row kernels, edges pixel by pixel.
old='''// Output rows [begin, end) of the batch's (image n, row y) rows by the filter of channel group `group`, on
// `threads`: where each pixel's patch starts'''
new='''// Output pixel `pixel` (of the batch, NHWC order) of `a` from the window taps inside the input alone, pixel by pixel
// and in plain C++, the epilogue applied: the few pixels a row's patch-row kernel call leaves at its ends, whose
// windows reach into the zero border.
void multiply_pixel(const ConvArgs& a, const GemmPackedA<float>& filter, const RowKernels& kernels, i64 pixel) {
  const i64 n = pixel / (a.out_h * a.out_w), y = pixel / a.out_w % a.out_h, x = pixel % a.out_w;
  const i64 top = y * a.stride_h - a.pad_top, left = x * a.stride_w - a.pad_left, k = filter.k();
  const i64 r0 = std::clamp<i64>(-top, 0, a.window_h), r1 = std::clamp<i64>(a.in_h - top, r0, a.window_h);
  const i64 s0 = std::clamp<i64>(-left, 0, a.window_w), s1 = std::clamp<i64>(a.in_w - left, s0, a.window_w);
  float sum[max_panel_rows];
  for (i64 panel = 0; panel < kernels.panels; ++panel) {
    const i64 row0 = panel * kernels.mr, rows = std::min(kernels.mr, filter.m() - row0);
    const i64 width = (rows + kernels.lanes - 1) / kernels.lanes * kernels.lanes;
    const float* w = filter.data() + row0 * k;   // (i, p) at w[p * width + i]
    std::fill(sum, sum + rows, 0.f);
    for (i64 r = r0; r < r1; ++r)
      for (i64 s = s0; s < s1; ++s) {
        const float* in = a.input + ((n * a.in_h + top + r) * a.in_w + left + s) * a.in_c;
        for (i64 c = 0; c < a.in_c; ++c) {
          const float v = in[c], *wp = w + ((r * a.window_w + s) * a.in_c + c) * width;
          for (i64 i = 0; i < rows; ++i) sum[i] += wp[i] * v;
        }
      }
    const i64 at = pixel * a.out_c + row0;
    for (i64 i = 0; i < rows; ++i) {
      const float v = kernel::plus_if_set(kernel::plus_if_set(sum[i], a.residual, at + i, a.output), a.bias, row0 + i,
                                          a.output);
      a.output[at + i] = a.relu && v < 0.f ? 0.f : v;
    }
  }
}

// Output rows [begin, end) of the ungrouped `a` read from the input itself, without the padded copy: each row's
// pixels whose windows lie inside the input along the row by one patch-row kernel call per panel, the window rows
// above and below the input left out (their taps multiply zeros), the pixels at the row's ends and the rows with
// too few such pixels by multiply_pixel. MobileNetV3's stem (3x3/2, 3 -> 16) spent 12% of its time in the copy.
void multiply_unpadded(const ConvArgs& a, const GemmPackedA<float>& filter, const RowKernels& kernels, i64 begin,
                       i64 end) {
  const i64 k = filter.k(), run = a.window_w * a.in_c, row_floats = a.in_w * a.in_c;
  // The pixels whose windows lie inside the input along its rows: [x0, x1).
  const i64 x0 = std::min(a.out_w, (a.pad_left + a.stride_w - 1) / a.stride_w);
  const i64 x1 = std::clamp<i64>(a.in_w + a.pad_left >= a.window_w
                                     ? (a.in_w + a.pad_left - a.window_w) / a.stride_w + 1 : 0, x0, a.out_w);
  for (i64 t = begin; t < end; ++t) {
    const i64 n = t / a.out_h, top = t % a.out_h * a.stride_h - a.pad_top;
    const i64 r0 = std::clamp<i64>(-top, 0, a.window_h), r1 = std::clamp<i64>(a.in_h - top, r0, a.window_h);
    const bool inside = r1 > r0 && x1 - x0 >= kernels.cols;
    if (inside) {
      const float* rows = a.input + ((n * a.in_h + top + r0) * a.in_w + x0 * a.stride_w - a.pad_left) * a.in_c;
      for (i64 panel = 0; panel < kernels.panels; ++panel) {
        const bool last = panel == kernels.panels - 1;
        const i64 row0 = panel * kernels.mr, width = last ? filter.m() - row0 : kernels.mr;
        const i64 at = (t * a.out_w + x0) * a.out_c + row0;
        const float* w = filter.data() + row0 * k + r0 * run * ((width + kernels.lanes - 1) / kernels.lanes *
                                                               kernels.lanes);
        (last ? kernels.last : kernels.full)(x1 - x0, w, rows, r1 - r0, run, row_floats, a.output + at, a.out_c,
                                             last ? kernels.last_rows : int(kernels.lanes),
                                             a.bias ? a.bias + row0 : nullptr, a.residual ? a.residual + at : nullptr,
                                             a.relu);
      }
    }
    for (i64 x = 0; x < a.out_w; ++x)
      if (!inside || x < x0 || x >= x1) multiply_pixel(a, filter, kernels, t * a.out_w + x);
  }
}

// Output rows [begin, end) of the batch's (image n, row y) rows by the filter of channel group `group`, on
// `threads`: where each pixel's patch starts'''
assert old in s; s=s.replace(old,new)

# 3. Dispatch: the unpadded path before the bands.
old='''  const i64 cores = core_parts(q, rows);
  if (p.copied && (cores == 1 || rows >= 4 * cores)) {'''
new='''  const i64 cores = core_parts(q, rows);
  // First layers by the patch-row kernels, read from the input itself (multiply_unpadded), each core its share of
  // the rows.
  if (const RowKernels row_kernels = patch_row_kernels(a, p, filter); row_kernels.full) {
#pragma omp parallel for schedule(static) num_threads(int(cores)) if (cores > 1)
    for (i64 part = 0; part < cores; ++part)
      multiply_unpadded(a, filter, row_kernels, rows * part / cores, rows * (part + 1) / cores);
    return;
  }
  if (p.copied && (cores == 1 || rows >= 4 * cores)) {'''
assert old in s; s=s.replace(old,new)
old='''  // The input read in place by the patch-row kernel: each core its share of the rows.
  if (const RowKernels row_kernels = p.copied ? RowKernels{} : patch_row_kernels(a, p, filter); row_kernels.full) {
#pragma omp parallel for schedule(static) num_threads(int(cores)) if (cores > 1)
    for (i64 part = 0; part < cores; ++part)
      multiply_whole_rows(a, p, filter, 0, a.input, 0, rows * part / cores, rows * (part + 1) / cores, row_kernels);
    return;
  }

'''
assert old in s; s=s.replace(old,'')
old='''struct RowKernels {'''
new='''constexpr i64 max_panel_rows = 256;   // multiply_pixel's sums of one panel
struct RowKernels {'''
s=s.replace(old,new)
old='''  if (!set || l.k > l.kc || l.k * std::min(l.m, l.mr) * i64(sizeof(float)) > 48 * 1024) return {};'''
new='''  if (!set || l.k > l.kc || l.mr > max_panel_rows || l.k * std::min(l.m, l.mr) * i64(sizeof(float)) > 48 * 1024)
    return {};'''
assert old in s; s=s.replace(old,new)
open(p,'w').write(s)
