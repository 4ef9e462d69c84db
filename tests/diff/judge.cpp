// judge(): compare with LibTorch as it is; where that fails for a float16/bfloat16 program
// because LibTorch 1.13 has no such kernel or computes it in the narrow type, compare with the
// float32-computed reference that PyTorch 2.x's kernels amount to.
#include "judge.h"

#include "compare.h"

namespace difftest {

bool missing_kernel(const Outcome& torch) {
  return torch.error && (torch.error->find("not implemented for 'Half'") != std::string::npos ||
                         torch.error->find("not implemented for 'BFloat16'") != std::string::npos);
}

std::optional<DType> float32_reference(const Program& p) {
  std::optional<DType> narrow;
  bool has_float32 = false;
  auto see = [&](DType t) {
    if (t == DType::Float32) has_float32 = true;
    if (t != DType::Float16 && t != DType::BFloat16) return;
    if (narrow && *narrow != t) has_float32 = true;  // both: they promote to float32 together
    narrow = t;
  };
  for (const Input& in : p.inputs) see(in.dtype);
  for (const Arg& a : p.args)
    if (std::holds_alternative<DType>(a.value)) see(std::get<DType>(a.value));
  return has_float32 ? std::nullopt : narrow;
}

Verdict judge(const Program& p, const Outcome& ember) {
  Verdict v{{}, run_torch(p), std::nullopt, nullptr};
  v.disagreements = compare(p, ember, v.reference);
  if (v.disagreements.empty()) return v;
  // A LibTorch error other than a missing kernel is a verdict of its own (e.g. a float16
  // overflow check), which a float32 run would not reproduce.
  const std::optional<DType> narrow = float32_reference(p);
  if (narrow && (!v.reference.error || missing_kernel(v.reference))) {
    v.float32 = run_torch(p, narrow);
    if (compare(p, ember, *v.float32).empty()) {
      v.disagreements.clear();
      v.allowance = "float16/bfloat16 matched the float32-computed reference";
      return v;
    }
  }
  if (const char* known = known_difference(p, ember, v.reference)) {
    v.disagreements.clear();
    v.allowance = known;
  }
  return v;
}

}  // namespace difftest
