// libportkern_blas.so: the drop-in BLAS interface. Exports the Fortran sgemm_/dgemm_ (hidden string-length
// arguments after the others) and cblas_sgemm/cblas_dgemm, running portkern::gemm on the CPU back end, so
// that existing programs can link or LD_PRELOAD it; it exports nothing else. Arguments are checked in the
// reference order; an error goes to the process's own xerbla_ (Fortran: "SGEMM ", the argument's position)
// or cblas_xerbla (CBLAS: the reference's positions, row-major ones as the reference reports them), found
// when the error happens, with the library's own message on stderr only where the process has none
// (error_reporting.hpp). The library is not linked with -Bsymbolic, so a program's definitions come first.
// No exception leaves an entry point: a failure that is not an argument error (e.g. out of memory) is one
// line on stderr and the call returns, C then unspecified. Quick returns are the reference's (beta == 0: C
// is not read). Set PORTKERN_BLAS_VERBOSE=1 to hear on stderr that it is in use.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <mutex>

#include "blas_abi/error_reporting.hpp"
#include "portkern/blas.hpp"

#define PORTKERN_EXPORT extern "C" __attribute__((visibility("default")))

using portkern::blas_abi::report_argument_error;
using portkern::blas_abi::report_cblas_argument_error;
using portkern::blas_abi::without_exceptions;

namespace {

// The CPU queue every call runs on (all cores), made on first use.
portkern::Queue& cpu_queue() {
  static portkern::Queue queue(portkern::Device::cpu());
  static std::once_flag announced;
  std::call_once(announced, [] {
    if (const char* v = std::getenv("PORTKERN_BLAS_VERBOSE"); v && *v == '1') std::fprintf(stderr, "portkern BLAS in use\n");
  });
  return queue;
}

bool is_trans(char c) { return c == 'T' || c == 't' || c == 'C' || c == 'c'; }
bool is_notrans(char c) { return c == 'N' || c == 'n'; }

// The reference SGEMM/DGEMM: argument checks (returning the failing position, 0 if none), quick return, call.
template <class T>
int checked_gemm(char transa, char transb, int m, int n, int k, T alpha, const T* a, int lda, const T* b, int ldb,
                 T beta, T* c, int ldc) {
  const bool ta = is_trans(transa), tb = is_trans(transb);
  const int rows_a = ta ? k : m, rows_b = tb ? n : k;
  if (!ta && !is_notrans(transa)) return 1;
  if (!tb && !is_notrans(transb)) return 2;
  if (m < 0) return 3;
  if (n < 0) return 4;
  if (k < 0) return 5;
  if (lda < std::max(1, rows_a)) return 8;
  if (ldb < std::max(1, rows_b)) return 10;
  if (ldc < std::max(1, m)) return 13;
  if (m == 0 || n == 0 || ((alpha == T(0) || k == 0) && beta == T(1))) return 0;
  portkern::gemm<T>(cpu_queue(), ta ? portkern::Op::trans : portkern::Op::none,
                    tb ? portkern::Op::trans : portkern::Op::none, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
  return 0;
}

enum Layout { RowMajor = 101, ColMajor = 102 };
enum Trans { NoTrans = 111, Trans = 112, ConjTrans = 113 };

char trans_char(int t) { return t == NoTrans ? 'N' : t == Trans ? 'T' : t == ConjTrans ? 'C' : '?'; }

// A CBLAS argument error: the position, and a printf format for one more line with the int it prints.
struct CblasError {
  int info = 0;
  const char* form = "";
  int value = 0;
};

// CBLAS: column-major is the Fortran routine; row-major is the Fortran routine on the transposed problem
// (A and B, m and n swapped), its errors reported at the positions the reference reports them.
template <class T>
CblasError checked_cblas_gemm(int layout, int transa, int transb, int m, int n, int k, T alpha, const T* a, int lda,
                              const T* b, int ldb, T beta, T* c, int ldc) {
  if (layout != ColMajor && layout != RowMajor) return {1, "Illegal layout setting, %d\n", layout};
  if (trans_char(transa) == '?') return {2, "Illegal TransA setting, %d\n", transa};
  if (trans_char(transb) == '?') return {3, "Illegal TransB setting, %d\n", transb};
  const int info =
      layout == ColMajor
          ? checked_gemm<T>(trans_char(transa), trans_char(transb), m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
          : checked_gemm<T>(trans_char(transb), trans_char(transa), n, m, k, alpha, b, ldb, a, lda, beta, c, ldc);
  return {info ? info + 1 : 0};
}

// How a failure of a row-major call names the routine: portkern's message names the column-major problem.
constexpr const char* row_major_sgemm = "cblas_sgemm (row-major, run as column-major with A, B and m, n exchanged)";
constexpr const char* row_major_dgemm = "cblas_dgemm (row-major, run as column-major with A, B and m, n exchanged)";

}  // namespace

// Each entry point: the work without exceptions, then the handler, outside, so that an exception the
// program's own handler throws (some C++ programs' do) reaches the program as it intends.

PORTKERN_EXPORT void sgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k,
                            const float* alpha, const float* a, const int* lda, const float* b, const int* ldb,
                            const float* beta, float* c, const int* ldc, std::size_t, std::size_t) {
  const int info = without_exceptions("SGEMM", [&] {
    return checked_gemm<float>(*transa, *transb, *m, *n, *k, *alpha, a, *lda, b, *ldb, *beta, c, *ldc);
  });
  if (info) report_argument_error("SGEMM ", info);
}

PORTKERN_EXPORT void dgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k,
                            const double* alpha, const double* a, const int* lda, const double* b, const int* ldb,
                            const double* beta, double* c, const int* ldc, std::size_t, std::size_t) {
  const int info = without_exceptions("DGEMM", [&] {
    return checked_gemm<double>(*transa, *transb, *m, *n, *k, *alpha, a, *lda, b, *ldb, *beta, c, *ldc);
  });
  if (info) report_argument_error("DGEMM ", info);
}

PORTKERN_EXPORT void cblas_sgemm(int layout, int transa, int transb, int m, int n, int k, float alpha, const float* a,
                                 int lda, const float* b, int ldb, float beta, float* c, int ldc) {
  const CblasError error = without_exceptions(layout == RowMajor ? row_major_sgemm : "cblas_sgemm", [&] {
    return checked_cblas_gemm<float>(layout, transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
  });
  if (error.info) report_cblas_argument_error(error.info, "cblas_sgemm", error.form, error.value);
}

PORTKERN_EXPORT void cblas_dgemm(int layout, int transa, int transb, int m, int n, int k, double alpha,
                                 const double* a, int lda, const double* b, int ldb, double beta, double* c, int ldc) {
  const CblasError error = without_exceptions(layout == RowMajor ? row_major_dgemm : "cblas_dgemm", [&] {
    return checked_cblas_gemm<double>(layout, transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
  });
  if (error.info) report_cblas_argument_error(error.info, "cblas_dgemm", error.form, error.value);
}
