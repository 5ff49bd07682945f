// Prints the cuda-sm90 deployments' picks for the layers of CSV layer lists at batches 1 and 4.
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>
#include "deploy/cuda-sm90/conv2d.hpp"
#include "deploy/cuda-sm90/conv2d_ieee.hpp"
#include "deploy/cuda-sm90/conv2d_tf32.hpp"
using namespace portkern::deploy;
template <class D>
std::string pick(const ConvProblem& p) {
  const std::string_view family = D::families[D::select_family(p)];
  return std::string(D::configs_of(family)[D::select_in(family, p)]);
}
int main(int argc, char** argv) {
  const int max_c = std::stoi(argv[1]);
  for (int f = 2; f < argc; ++f) {
    std::ifstream in(argv[f]);
    std::string line;
    std::getline(in, line);
    while (std::getline(in, line)) {
      std::stringstream ss(line);
      std::string name, cell;
      std::getline(ss, name, ',');
      std::vector<long> v;
      while (std::getline(ss, cell, ',')) v.push_back(std::stol(cell));
      const long window = v[0], stride = v[1], in_h = v[2], in_w = v[3], in_c = v[4], out_h = v[5], out_w = v[6], k = v[7];
      if (in_c > max_c || (v.size() > 8 && v[8] != 1)) continue;
      const long pad = (in_h - window) / stride + 1 == out_h ? 0 : (window - 1) / 2;
      for (long b : {1, 2, 4, 8, 16, 32}) {
        ConvProblem p{b, in_h, in_w, in_c, out_h, out_w, k, window, window, stride, stride, pad, pad};
        std::cout << name << " " << b << " " << in_h << " " << in_w << " " << in_c << " " << out_h << " " << out_w << " " << k << " " << window << " " << stride << " " << pad << "  " << pick<cuda_sm90::conv2d>(p) << "  " << pick<cuda_sm90::conv2d_ieee>(p)
                  << "  " << pick<cuda_sm90::conv2d_tf32>(p) << "\n";
      }
    }
  }
}
