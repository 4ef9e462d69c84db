// The verdict on one program: ember's outcome against LibTorch's, with the allowances that
// LibTorch 1.13 (older than the PyTorch 2.x that ember follows) and ember's documented
// differences from PyTorch call for. Every allowance is named, and the summary counts them.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "outcome.h"

namespace difftest {

struct Verdict {
  std::vector<std::string> disagreements;  // empty: ember agrees
  Outcome reference;                       // LibTorch's outcome
  std::optional<Outcome> float32;          // the float32-computed one, where it was consulted
  const char* allowance = nullptr;         // how agreement was reached, when not plainly
};

Verdict judge(const Program& p, const Outcome& ember);

// The float16 or bfloat16 dtype a program can be recomputed in float32 for: PyTorch 2.x's
// kernels for both compute in float32 and round the result, where LibTorch 1.13 lacks many of
// them or accumulates in the narrow type. Sound only when the program has one such dtype and no
// float32 of its own (whose results would be mistaken for the narrow type's).
std::optional<DType> float32_reference(const Program& p);

// Whether LibTorch refused for want of a float16 or bfloat16 kernel.
bool missing_kernel(const Outcome& torch);

// A disagreement that is a documented difference (README, "Differences from PyTorch") or a
// known LibTorch 1.13 behaviour that PyTorch 2.x changed: its name, or nullptr.
const char* known_difference(const Program& p, const Outcome& ember, const Outcome& torch);

}  // namespace difftest
