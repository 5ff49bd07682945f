/* A program with no BLAS error handler anywhere in the process (no xerbla_, no cblas_xerbla: no other
 * BLAS loaded) that loads libportkern_blas.so with dlopen, as Python's ctypes does. Checks that
 *  - an argument error prints the reference's message on stderr and the call returns (the reference
 *    handlers would stop the program: a library must not end its host);
 *  - a call that fails inside portkern (a null C or A: an exception in the implementation) prints one line
 *    on stderr and returns;
 *  - the library computes correctly afterwards.
 * Usage: blas_host_without_handler /path/to/libportkern_blas.so. Prints "OK: ..." and exits 0, or prints
 * what failed and exits 1. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "stderr_capture.h"

typedef void Sgemm(const char*, const char*, const int*, const int*, const int*, const float*, const float*,
                   const int*, const float*, const int*, const float*, float*, const int*, size_t, size_t);
typedef void Dgemm(const char*, const char*, const int*, const int*, const int*, const double*, const double*,
                   const int*, const double*, const int*, const double*, double*, const int*, size_t, size_t);
typedef void CblasSgemm(int, int, int, int, int, int, float, const float*, int, const float*, int, float, float*, int);
enum { ColMajor = 102, NoTrans = 111 };

static int failures = 0;

static void expect(int ok, const char* what) {
  if (!ok) {
    printf("FAIL: %s\n", what);
    failures++;
  }
}

int main(int argc, char** argv) {
  if (argc != 2) {
    printf("usage: %s /path/to/libportkern_blas.so\n", argv[0]);
    return 1;
  }
  setvbuf(stdout, NULL, _IONBF, 0);   /* failures printed before a crash */
  void* library = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    printf("FAIL: %s\n", dlerror());
    return 1;
  }
  if (dlsym(RTLD_DEFAULT, "xerbla_") || dlsym(RTLD_DEFAULT, "cblas_xerbla") || dlsym(library, "xerbla_") ||
      dlsym(library, "cblas_xerbla")) {
    printf("FAIL: the process has a BLAS error handler (this test needs one without)\n");
    return 1;
  }
  Sgemm* sgemm = (Sgemm*)dlsym(library, "sgemm_");
  Dgemm* dgemm = (Dgemm*)dlsym(library, "dgemm_");
  CblasSgemm* cblas_sgemm = (CblasSgemm*)dlsym(library, "cblas_sgemm");
  if (!sgemm || !dgemm || !cblas_sgemm) {
    printf("FAIL: sgemm_, dgemm_ or cblas_sgemm missing from %s\n", argv[1]);
    return 1;
  }

  const float a[4] = {1, 2, 3, 4}, b[4] = {5, 6, 7, 8}, one = 1, zero = 0;
  const double ad[4] = {1, 2, 3, 4}, bd[4] = {5, 6, 7, 8}, oned = 1, zerod = 0;
  float c[4] = {7, 7, 7, 7};
  double cd[4] = {7, 7, 7, 7};
  const int two = 2, minus_one = -1;

  struct StderrCapture capture = stderr_capture_start();
  sgemm("N", "N", &two, &minus_one, &two, &one, a, &two, b, &two, &zero, c, &two, 1, 1);
  cblas_sgemm(ColMajor, 999, NoTrans, 2, 2, 2, 1, a, 2, b, 2, 0, c, 2);
  dgemm("N", "N", &two, &two, &two, &oned, ad, &two, bd, &two, &zerod, NULL, &two, 1, 1);
  cblas_sgemm(ColMajor, NoTrans, NoTrans, 2, 2, 2, 1, NULL, 2, b, 2, 0, c, 2);
  char text[4096];
  stderr_capture_stop(&capture, text, sizeof text);

  expect(strstr(text, " ** On entry to SGEMM parameter number  4 had an illegal value\n") != NULL,
         "no reference message for sgemm_ with n = -1");
  expect(strstr(text, "Parameter 2 to routine cblas_sgemm was incorrect\nIllegal TransA setting, 999\n") != NULL,
         "no reference message for cblas_sgemm with transa = 999");
  expect(strstr(text, "libportkern_blas: DGEMM did not complete: portkern::gemm: argument c = nullptr") != NULL,
         "no failure line for dgemm_ with c = NULL");
  expect(strstr(text, "libportkern_blas: cblas_sgemm did not complete: portkern::gemm: argument a = nullptr") != NULL,
         "no failure line for cblas_sgemm with a = NULL");
  expect(c[0] == 7 && c[1] == 7 && c[2] == 7 && c[3] == 7, "C written by a call with an argument error");

  dgemm("N", "N", &two, &two, &two, &oned, ad, &two, bd, &two, &zerod, cd, &two, 1, 1);
  expect(cd[0] == 23 && cd[1] == 34 && cd[2] == 31 && cd[3] == 46, "dgemm_ after the failures: wrong C");

  if (failures) return 1;
  printf("OK: argument errors and failures reported on stderr, the program went on\n");
  return 0;
}
