// ember's generator, through which every random op draws (the factories, the in-place fills,
// dropout's masks), so that manual_seed reproduces them all.
#pragma once

#include "ember/tensor.h"
#include "kernels/elementwise_stubs.h"

namespace ember::ops {

// Fills the contiguous `out`: Uniform in [a, b), Normal(mean a, std b), Integer in [a, b). The
// generator moves past the counters the draw used.
void draw(const Tensor& out, kernels::RandomKind kind, double a, double b);

}  // namespace ember::ops
