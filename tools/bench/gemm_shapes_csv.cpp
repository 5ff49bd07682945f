// The GEMM shapes CSV: a header naming at least m,k,n,batch (optionally trans_a,trans_b; other columns are
// ignored), one shape per row, each size >= 1, trans_a/trans_b 0 or 1, and operands whose sizes in bytes fit
// 64 bits. Every error names the file, the line and the column (csv_reader.hpp).

#include "bench/csv_reader.hpp"
#include "bench/shapes.hpp"
#include "portkern/checked.hpp"
#include "portkern/error.hpp"

namespace portkern::bench {

std::vector<GemmShape> read_gemm_shapes(std::istream& in, const std::string& source) {
  CsvReader csv(in, source);
  csv.require_columns({"m", "k", "n", "batch"});
  std::vector<GemmShape> shapes;
  while (csv.next()) {
    GemmShape s{csv.integer("m", 1, INT64_MAX), csv.integer("n", 1, INT64_MAX), csv.integer("k", 1, INT64_MAX),
                csv.integer("batch", 1, INT64_MAX), csv.integer_or("trans_a", 0, 1, 0) != 0,
                csv.integer_or("trans_b", 0, 1, 0) != 0};
    // The largest operand in double precision: batch * max(m*k, k*n, m*n) * 8 bytes must fit 64 bits.
    try {
      checked_product({s.m, s.k, s.batch, 8}, "the operands are too large", "m*k*batch*8 bytes");
      checked_product({s.k, s.n, s.batch, 8}, "the operands are too large", "k*n*batch*8 bytes");
      checked_product({s.m, s.n, s.batch, 8}, "the operands are too large", "m*n*batch*8 bytes");
    } catch (const Error& e) {
      csv.fail_here(e.what());
    }
    shapes.push_back(s);
  }
  if (shapes.empty()) fail(source, "no shapes in the file (only a header)");
  return shapes;
}

std::vector<GemmShape> read_gemm_shapes(const std::string& path) {
  std::ifstream in = open_shapes_file(path);
  return read_gemm_shapes(in, path);
}

}  // namespace portkern::bench
