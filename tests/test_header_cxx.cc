// test_header_cxx.cc: the public header compiles as C++ (the bench/ shim
// is C++) and its declarations link from C++ in both precisions.
#include "vistudy.h"

#include <cstdio>

int main() {
  double c[3], b[3];
  __float128 cq[3], bq[3];
  int rd = vi_quad_gauss_d(3, c, b);
  int rq = vi_quad_gauss_q(3, cq, bq);
  std::printf("header_cxx: %s / %s\n", vi_strerror(rd), vi_strerror(rq));
  return rd == VI_OK && rq == VI_OK ? 0 : 1;
}
