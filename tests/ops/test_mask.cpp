// mask against its reference (exact): all six kinds on 2-D (batch 0) and 3-D tensors, the vector path and the
// scalar fallback (odd cols, a misaligned pointer), rows shorter and longer than a group's step (the row
// index j wrapping inside one step), lengths below 0 and beyond cols, windows sticking out of the row,
// radius 0, in place, poisoned outputs, empty tensors, and bad arguments.
#include <random>

#include "op_testing.hpp"
#include "ops/mask/reference.hpp"
#include "portkern/ops/mask.hpp"

namespace portkern::testing {
namespace {

constexpr ops::MaskKind kinds[] = {ops::MaskKind::sequence, ops::MaskKind::window,     ops::MaskKind::upper,
                                   ops::MaskKind::lower,    ops::MaskKind::upper_diag, ops::MaskKind::lower_diag};

void check_mask(const Device& device, ops::MaskKind kind, std::int64_t batch, std::int64_t rows, std::int64_t cols,
                std::int64_t radius, std::int32_t fill, int misalign = 0, bool in_place = false) {
  Queue q(device);
  const std::int64_t numel = (batch > 0 ? batch : 1) * rows * cols;
  std::mt19937 rng(unsigned(rows * 131 + cols));
  std::vector<std::int32_t> host(static_cast<std::size_t>(numel)), per_row(static_cast<std::size_t>(rows));
  for (auto& v : host) v = std::int32_t(rng() % 100000) + 1;   // never the fill values used here
  for (auto& v : per_row) v = std::int32_t(rng() % std::uint32_t(cols + 7)) - 3;   // [-3, cols + 3]
  std::vector<std::int32_t> padded(std::size_t(misalign), 42);
  padded.insert(padded.end(), host.begin(), host.end());
  auto in = to_device(q, padded);
  auto rows_buffer = to_device(q, per_row);
  auto out = poisoned<std::int32_t>(q, numel + misalign, -777);
  std::int32_t* out_ptr = in_place ? in.data() + misalign : out.data() + misalign;
  ops::mask(q, kind, batch, rows, cols, in.data() + misalign, out_ptr, fill, rows_buffer.data(), radius);
  auto got = in_place ? in.download(q) : out.download(q);
  got.erase(got.begin(), got.begin() + misalign);
  got.resize(std::size_t(numel));
  EXPECT_TRUE(all_equal(got, ops::mask_impl::reference(kind, batch, rows, cols, host, fill, per_row, radius)))
      << ops::mask_kind_name(kind) << ' ' << batch << 'x' << rows << 'x' << cols << " radius " << radius
      << " misalign " << misalign << (in_place ? " in place" : "");
}

PORTKERN_OP_TEST(Mask, EveryKindAndShape) {
  struct Shape {
    std::int64_t batch, rows, cols;
  };
  const Shape shapes[] = {{0, 5, 7},  {3, 4, 8},   {2, 13, 1030}, {5, 1, 3},
                          {3, 7, 4},  {3, 300, 4}, {4, 3, 1},     {0, 1, 1}};
  for (auto kind : kinds)
    for (const auto& s : shapes) check_mask(device, kind, s.batch, s.rows, s.cols, s.cols / 4 + 1, -1);
}

PORTKERN_OP_TEST(Mask, WindowRadiiFillValuesAndFallbacks) {
  check_mask(device, ops::MaskKind::window, 2, 9, 12, 0, -1);
  check_mask(device, ops::MaskKind::window, 2, 9, 12, 100, -1);       // wider than the row: nothing masked
  check_mask(device, ops::MaskKind::sequence, 2, 9, 12, 0, 12345);
  check_mask(device, ops::MaskKind::upper, 2, 9, 12, 0, 0, 1);        // misaligned: scalar
  check_mask(device, ops::MaskKind::lower_diag, 2, 9, 12, 0, -1, 0, true);   // in place
  check_mask(device, ops::MaskKind::window, 3, 5, 16, 2, -1, 2, true);
  for (auto kind : kinds) {   // rows a whole number of steps long (row_walk's aligned case), partial last group
    check_mask(device, kind, 2, 3, 512, 100, -1);
    check_mask(device, kind, 1, 5, 2048, 700, -1);
  }
}

PORTKERN_OP_TEST(Mask, EmptyTensorReturnsAtOnce) {
  Queue q(device);
  ops::mask(q, ops::MaskKind::sequence, 3, 0, 5, nullptr, nullptr, -1, nullptr);
  ops::mask(q, ops::MaskKind::upper, 3, 5, 0, nullptr, nullptr, -1);
}

PORTKERN_OP_TEST(Mask, BadArgumentsAreErrors) {
  Queue q(device);
  Buffer<std::int32_t> in(device, 64), out(device, 64), len(device, 4);
  EXPECT_PORTKERN_ERROR(ops::mask(q, ops::MaskKind::upper, -1, 4, 4, in.data(), out.data(), -1), "batch = -1");
  EXPECT_PORTKERN_ERROR(ops::mask(q, ops::MaskKind::upper, 2, -4, 4, in.data(), out.data(), -1), "rows = -4");
  EXPECT_PORTKERN_ERROR(ops::mask(q, ops::MaskKind::upper, 2, 4, -3, in.data(), out.data(), -1), "cols = -3");
  EXPECT_PORTKERN_ERROR(ops::mask(q, ops::MaskKind::window, 2, 4, 4, in.data(), out.data(), -1, len.data(), -2),
                        "radius = -2");
  EXPECT_PORTKERN_ERROR(ops::mask(q, ops::MaskKind::sequence, 2, 4, 4, in.data(), out.data(), -1), "per_row");
  EXPECT_PORTKERN_ERROR(ops::mask(q, ops::MaskKind(9), 2, 4, 4, in.data(), out.data(), -1), "kind = 9");
  EXPECT_PORTKERN_ERROR(ops::mask(q, ops::MaskKind::lower, 2, 4, 4, nullptr, out.data(), -1), "in");
}

}  // namespace
}  // namespace portkern::testing
