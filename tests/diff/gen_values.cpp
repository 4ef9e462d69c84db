// The elements of input tensors. Every value is exactly representable in its dtype, so both
// libraries start from identical bits whatever their double -> dtype conversion does.
#include <cmath>

#include "gen.h"

namespace difftest {
namespace {

// k * 2^e with |k| < 64: at most 6 significant bits, exact in bfloat16 (8) and float16 (11),
// mostly of moderate size, sometimes up to ~1000 or down to ~0.01.
double grid(Rng& rng) {
  static const std::vector<double> weights = {1, 1, 3, 3, 3, 3, 1, 1, 1};  // e = -6 ... 2
  int e = static_cast<int>(rng.weighted(weights)) - 6;
  if (rng.chance(0.03)) e = 4;
  return std::ldexp(static_cast<double>(rng.uniform(-63, 63)), e);
}

double integer_value(Rng& rng, DType t) {
  const bool wide = rng.chance(0.15);
  switch (t) {
    case DType::Bool: return static_cast<double>(rng.uniform(0, 1));
    case DType::UInt8: return static_cast<double>(wide ? rng.uniform(0, 255) : rng.uniform(0, 9));
    case DType::Int8:
      return static_cast<double>(wide ? rng.uniform(-128, 127) : rng.uniform(-9, 9));
    case DType::Int16:
      return static_cast<double>(wide ? rng.uniform(-2000, 2000) : rng.uniform(-9, 9));
    // Products of two stay within int32 / int64: signed overflow is undefined in C++ and
    // LibTorch alike, so there is nothing to compare.
    case DType::Int32:
      return static_cast<double>(wide ? rng.uniform(-30000, 30000) : rng.uniform(-9, 9));
    default: return static_cast<double>(wide ? rng.uniform(-1000000, 1000000) : rng.uniform(-9, 9));
  }
}

double float_value(Rng& rng, DType t, bool specials) {
  static const std::vector<double> special_values = {0.0, -0.0, INFINITY, -INFINITY, NAN};
  if (specials && rng.chance(0.2)) return rng.pick(special_values);
  if ((t == DType::Float32 || t == DType::Float64) && rng.chance(0.5)) {
    double r = (rng.real() * 2 - 1) * 4;
    return t == DType::Float32 ? static_cast<double>(static_cast<float>(r)) : r;
  }
  return grid(rng);
}

}  // namespace

std::vector<double> Gen::values(DType dtype, int64_t n, Values kind) {
  std::vector<double> v(static_cast<size_t>(n));
  const bool floating = is_floating(dtype);
  const bool specials = floating && kind.kind == Values::Kind::General && rng.chance(0.15);
  for (size_t i = 0; i < v.size(); ++i) {
    switch (kind.kind) {
      case Values::Kind::General:
      case Values::Kind::Finite:
        v[i] = floating ? float_value(rng, dtype, specials) : integer_value(rng, dtype);
        break;
      case Values::Kind::Small:
        v[i] = static_cast<double>(rng.uniform(
            dtype == DType::Bool || dtype == DType::UInt8 ? 0 : -3, dtype == DType::Bool ? 1 : 3));
        break;
      case Values::Kind::Range:
        v[i] = static_cast<double>(
            rng.uniform(static_cast<int64_t>(kind.lo), static_cast<int64_t>(kind.hi)));
        if (floating && rng.chance(0.5)) v[i] += 0.5 * (v[i] < kind.hi ? 1 : 0);  // still in range
        break;
      case Values::Kind::Distinct:
        // i-th of a shuffled ramp: distinct, exact in every dtype wide enough for n values.
        v[i] = static_cast<double>(i) - (dtype == DType::UInt8 ? 0.0 : static_cast<double>(n / 2));
        if (floating) v[i] /= 4;
        if (dtype == DType::Bool) v[i] = static_cast<double>(i % 2);  // two values are all bool has
        break;
    }
  }
  if (kind.kind == Values::Kind::Distinct)
    for (size_t i = v.size(); i > 1; --i)
      std::swap(v[i - 1], v[static_cast<size_t>(rng.uniform(0, static_cast<int64_t>(i) - 1))]);
  return v;
}

}  // namespace difftest
