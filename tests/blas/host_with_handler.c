/* A program with its own BLAS error handlers (host_handlers.c, in the program or in a library it links)
 * that either links the reference BLAS and runs with libportkern_blas.so preloaded
 * (WITH_REFERENCE_BLAS), or links libportkern_blas.so alone. Checks that
 *  - sgemm_/dgemm_ and cblas_sgemm/cblas_dgemm are portkern's and report argument errors to the program's
 *    handlers, with the routine's name and the argument's position, and leave C alone;
 *  - with the reference BLAS, its routines that portkern does not replace (ssymm_, cblas_ssymm) still
 *    report to the program's handlers, i.e. preloading portkern does not replace them;
 *  - a call that fails inside portkern (a null matrix: an exception in the implementation) returns to the
 *    program with one line on stderr, not calling the handler, and the next call works.
 * Prints "OK: ..." and exits 0, or prints what failed and exits 1. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host_handlers.h"
#include "stderr_capture.h"

void sgemm_(const char*, const char*, const int*, const int*, const int*, const float*, const float*, const int*,
            const float*, const int*, const float*, float*, const int*, size_t, size_t);
void dgemm_(const char*, const char*, const int*, const int*, const int*, const double*, const double*, const int*,
            const double*, const int*, const double*, double*, const int*, size_t, size_t);
void cblas_sgemm(int, int, int, int, int, int, float, const float*, int, const float*, int, float, float*, int);
void cblas_dgemm(int, int, int, int, int, int, double, const double*, int, const double*, int, double, double*, int);
#ifdef WITH_REFERENCE_BLAS
void ssymm_(const char*, const char*, const int*, const int*, const float*, const float*, const int*, const float*,
            const int*, const float*, float*, const int*, size_t, size_t);
void cblas_ssymm(int, int, int, int, int, float, const float*, int, const float*, int, float, float*, int);
#endif
enum { RowMajor = 101, ColMajor = 102, NoTrans = 111, Left = 141, Upper = 121 };

static int failures = 0;

static void expect(int ok, const char* what) {
  if (!ok) {
    printf("FAIL: %s\n", what);
    failures++;
  }
}

/* The library a symbol of the process comes from. */
static const char* library_of(const char* symbol) {
  Dl_info info;
  void* address = dlsym(RTLD_DEFAULT, symbol);
  return address && dladdr(address, &info) && info.dli_fname ? info.dli_fname : "(none)";
}

/* `call` must reach `handler` once with (`routine`, `info`) and leave C (4 values, all 7) alone. */
#define EXPECT_REPORT(handler, routine, info, c, cd, what, call)      \
  do {                                                                \
    const int calls_before = (handler).calls;                         \
    call;                                                             \
    expect_report(&(handler), calls_before, routine, info, c, cd, what); \
  } while (0)

static void expect_report(const struct HandlerCall* handler, int calls_before, const char* routine, int info,
                          const float* cs, const double* cd, const char* what) {
  char message[256];
  snprintf(message, sizeof message, "%s: handler called %d times with (\"%s\", %d), expected once with (\"%s\", %d)",
           what, handler->calls - calls_before, handler->routine, handler->info, routine, info);
  expect(handler->calls == calls_before + 1 && handler->info == info && strcmp(handler->routine, routine) == 0,
         message);
  for (int i = 0; i < 4; ++i)
    if ((cs && cs[i] != 7.0f) || (cd && cd[i] != 7.0)) {
      snprintf(message, sizeof message, "%s: C was written", what);
      expect(0, message);
      break;
    }
}

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0);   /* failures printed before a crash */
  for (const char* const* s = (const char* const[]){"sgemm_", "dgemm_", "cblas_sgemm", "cblas_dgemm", NULL}; *s; ++s)
    if (!strstr(library_of(*s), "libportkern_blas")) {
      printf("FAIL: %s comes from %s, not libportkern_blas.so (run with LD_PRELOAD=.../libportkern_blas.so)\n", *s,
             library_of(*s));
      return 1;
    }
  printf("handlers: xerbla_ from %s, cblas_xerbla from %s\n", library_of("xerbla_"), library_of("cblas_xerbla"));

  const float a[4] = {1, 2, 3, 4}, b[4] = {5, 6, 7, 8}, one = 1, zero = 0;
  const double ad[4] = {1, 2, 3, 4}, bd[4] = {5, 6, 7, 8}, oned = 1, zerod = 0;
  float c[4] = {7, 7, 7, 7};
  double cd[4] = {7, 7, 7, 7};
  const int two = 2, minus_one = -1, lda_small = 1;

  /* Fortran: positions as the reference SGEMM/DGEMM checks them. */
  EXPECT_REPORT(host_last_xerbla, "SGEMM ", 3, c, NULL, "sgemm_ with m = -1",
                sgemm_("N", "N", &minus_one, &two, &two, &one, a, &two, b, &two, &zero, c, &two, 1, 1));
  EXPECT_REPORT(host_last_xerbla, "SGEMM ", 1, c, NULL, "sgemm_ with transa = 'X'",
                sgemm_("X", "N", &two, &two, &two, &one, a, &two, b, &two, &zero, c, &two, 1, 1));
  EXPECT_REPORT(host_last_xerbla, "DGEMM ", 8, NULL, cd, "dgemm_ with lda = 1 < m = 2",
                dgemm_("N", "N", &two, &two, &two, &oned, ad, &lda_small, bd, &two, &zerod, cd, &two, 1, 1));
  EXPECT_REPORT(host_last_xerbla, "DGEMM ", 13, NULL, cd, "dgemm_ with ldc = 1 < m = 2",
                dgemm_("N", "T", &two, &two, &two, &oned, ad, &two, bd, &two, &zerod, cd, &lda_small, 1, 1));

  /* CBLAS: the reference's positions. */
  EXPECT_REPORT(host_last_cblas_xerbla, "cblas_sgemm", 1, c, NULL, "cblas_sgemm with layout 5",
                cblas_sgemm(5, NoTrans, NoTrans, 2, 2, 2, 1, a, 2, b, 2, 0, c, 2));
  EXPECT_REPORT(host_last_cblas_xerbla, "cblas_dgemm", 9, NULL, cd, "cblas_dgemm with lda = 1 < m = 2",
                cblas_dgemm(ColMajor, NoTrans, NoTrans, 2, 2, 2, 1, ad, 1, bd, 2, 0, cd, 2));

#ifdef WITH_REFERENCE_BLAS
  /* The rest of the process's BLAS still reports to the program's handlers. */
  EXPECT_REPORT(host_last_xerbla, "SSYMM ", 1, c, NULL, "the reference ssymm_ with side = 'X'",
                ssymm_("X", "U", &two, &two, &one, a, &two, b, &two, &zero, c, &two, 1, 1));
  EXPECT_REPORT(host_last_cblas_xerbla, "cblas_ssymm", 1, c, NULL, "the reference cblas_ssymm with layout 5",
                cblas_ssymm(5, Left, Upper, 2, 2, 1, a, 2, b, 2, 0, c, 2));
#endif

  /* A failure inside the implementation: reported on stderr, not to the handler; the program goes on. */
  const int xerbla_before = host_last_xerbla.calls, cblas_before = host_last_cblas_xerbla.calls;
  struct StderrCapture capture = stderr_capture_start();
  sgemm_("N", "N", &two, &two, &two, &one, a, &two, b, &two, &zero, NULL, &two, 1, 1);
  cblas_dgemm(RowMajor, NoTrans, NoTrans, 2, 2, 2, 1, NULL, 2, bd, 2, 0, cd, 2);
  char text[4096];
  stderr_capture_stop(&capture, text, sizeof text);
  expect(host_last_xerbla.calls == xerbla_before && host_last_cblas_xerbla.calls == cblas_before,
         "a null matrix went to the argument-error handler");
  expect(strstr(text, "libportkern_blas: SGEMM did not complete: ") != NULL, "no stderr line for sgemm_ with c = NULL");
  expect(strstr(text, "libportkern_blas: cblas_dgemm (row-major, run as column-major with A, B and m, n exchanged) "
                     "did not complete: portkern::gemm: argument b = nullptr") != NULL,
         "no stderr line for row-major cblas_dgemm with a = NULL");

  /* And the library still computes: C = A B with A = [1 3; 2 4], B = [5 7; 6 8] (column-major). */
  sgemm_("N", "N", &two, &two, &two, &one, a, &two, b, &two, &zero, c, &two, 1, 1);
  expect(c[0] == 23 && c[1] == 34 && c[2] == 31 && c[3] == 46, "sgemm_ after the failures: wrong C");

  if (failures) return 1;
  printf("OK: the program's handlers got every argument error; failures returned with a message\n");
  return 0;
}
