// How closely ember's floating results must agree with LibTorch's: a few units in the last place
// of the narrowest dtype the program computes in, plus what the op's rounding can add up to.
#pragma once

#include <cstdint>
#include <vector>

#include "program.h"

namespace difftest {

struct Tolerance {
  double rtol = 0, atol = 0;
  // False where rounding decides the values (see gradient_tolerance): dtype and shape only.
  bool values = true;
};

// An output of the program's op. Ops that move elements must agree exactly; accumulating ops
// are allowed the error of their largest terms (matrix products, losses) or results
// (reductions), which any order of summation makes, and normalisations that of 1 / sqrt(eps)
// times their input.
Tolerance output_tolerance(const Program& p, DType t, const std::vector<double>& reference);

// The gradient of input `i`. Gradients are sums of terms of the order of the upstream gradient
// (1 to 1.75), so their error is relative to that even where a sum cancels. Where a 16-bit
// program sums several terms into one element of the gradient (a broadcast or expanded input),
// the terms are rounded to 16 bits first and the sum is rounding noise: values are not compared.
Tolerance gradient_tolerance(const Program& p, size_t i, DType t,
                             const std::vector<double>& reference, int64_t largest_output);

// |a - b| <= atol + rtol |b|, NaN equal to NaN, infinities equal to themselves.
bool close(double a, double b, Tolerance tol);

}  // namespace difftest
