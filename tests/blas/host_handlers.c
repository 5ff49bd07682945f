/* A host program's own BLAS error handlers, as a program (the netlib test programs), a library (LAPACK) or
 * a Python module (numpy) defines them: they record each call, print nothing and do not stop the program.
 * Compiled into a test program, or into a shared library that the program links. */
#include "host_handlers.h"

#include <stddef.h>
#include <string.h>

struct HandlerCall host_last_xerbla, host_last_cblas_xerbla;

void xerbla_(const char* routine, const int* info, size_t length) {
  host_last_xerbla.calls++;
  host_last_xerbla.info = *info;
  const size_t n = length < sizeof host_last_xerbla.routine - 1 ? length : sizeof host_last_xerbla.routine - 1;
  memcpy(host_last_xerbla.routine, routine, n);
  host_last_xerbla.routine[n] = '\0';
}

void cblas_xerbla(int info, const char* routine, const char* form, ...) {
  (void)form;
  host_last_cblas_xerbla.calls++;
  host_last_cblas_xerbla.info = info;
  strncpy(host_last_cblas_xerbla.routine, routine, sizeof host_last_cblas_xerbla.routine - 1);
}
