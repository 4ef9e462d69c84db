// Compares what ember and LibTorch made of one program: whether both raised, the outputs'
// dtypes, shapes, requires_grad and elements, and the inputs' gradients.
#pragma once

#include <string>
#include <vector>

#include "outcome.h"

namespace difftest {

// Every disagreement, one line each; empty when the two agree. Integer and bool elements must
// match exactly, floating ones within a tolerance set by the dtype and the op's family; the
// indices of sort and topk may differ between equal values.
std::vector<std::string> compare(const Program& p, const Outcome& ember, const Outcome& torch);

// A readable dump of an outcome of program p for failure reports.
std::string to_string(const Program& p, const Outcome& o);

}  // namespace difftest
