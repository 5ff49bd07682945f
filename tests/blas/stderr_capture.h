/* For the BLAS host tests: what a stretch of a program writes on stderr, read back by the program. */
#pragma once

#include <stdio.h>
#include <string.h>
#include <unistd.h>

struct StderrCapture {
  FILE* file;
  int saved;
};

/* From now on, stderr goes into a temporary file. */
static inline struct StderrCapture stderr_capture_start(void) {
  struct StderrCapture capture = {tmpfile(), -1};
  fflush(stderr);
  capture.saved = dup(2);
  dup2(fileno(capture.file), 2);
  return capture;
}

/* stderr restored; `text` (NUL-terminated, at most `size` - 1 bytes) holds what was written meanwhile, and
 * is echoed on the real stderr so that the test log shows it. */
static inline void stderr_capture_stop(struct StderrCapture* capture, char* text, size_t size) {
  fflush(stderr);
  dup2(capture->saved, 2);
  close(capture->saved);
  rewind(capture->file);
  const size_t n = fread(text, 1, size - 1, capture->file);
  text[n] = '\0';
  fclose(capture->file);
  fputs(text, stderr);
}
