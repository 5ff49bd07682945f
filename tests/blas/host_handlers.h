/* The record that host_handlers.c keeps of the calls to its xerbla_ and cblas_xerbla. */
#pragma once

#include <stddef.h>

struct HandlerCall {
  int calls;          /* how many so far */
  int info;           /* the last one's argument position */
  char routine[32];   /* the last one's routine name, as passed (Fortran: padded, length as given) */
};

extern struct HandlerCall host_last_xerbla, host_last_cblas_xerbla;

void xerbla_(const char* routine, const int* info, size_t length);
void cblas_xerbla(int info, const char* routine, const char* form, ...);
