// Reduction math, written once for the CPU and CUDA reduce loops. Every op is a struct with
//   identity()            the accumulator of an empty reduction,
//   reduce(acc, x, i)     folds element x (in opmath type; its flat index i along the reduced
//                         dims) into acc,
//   combine(a, b)         merges two partial accumulators (any split, any order),
//   project(acc)          the final value written out,
// as PyTorch's ReduceOps (integer sums and products wrap: Note [Integer wraparound]). Only
// <cmath>, <cstdint>, <cstring>, <limits>, <type_traits> and <utility>: this file must compile
// under nvcc.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <utility>

#include "ember/macros.h"
#include "kernels/vector_math.h"
#include "kernels/wrap_int.h"

namespace ember::kernels {

// The accumulator type of an op.
template <class Ops>
using acc_of = decltype(std::declval<const Ops&>().identity());

template <class T>
EMBER_HOST_DEVICE inline bool is_nan(T x) {
  if constexpr (std::is_floating_point_v<T>) return x != x;
  else return false;
}

// The accumulator of sum/prod and the scans: int64 for integers and bool (PyTorch's result dtype),
// float for the 16-bit floats, the type itself otherwise.
template <class T>
using sum_acc_t = std::conditional_t<std::is_integral_v<T>, int64_t,
                                     std::conditional_t<std::is_arithmetic_v<T>, T, float>>;

// The accumulator of cumsum and cumprod for storage type T: float accumulates in double, as
// PyTorch's CPU kernels (acc_type<float>); sum_acc_t otherwise.
template <class T>
using scan_acc_t = std::conditional_t<std::is_same_v<T, float>, double, sum_acc_t<T>>;

template <class Acc>
struct SumOp {
  EMBER_HOST_DEVICE Acc identity() const { return Acc(0); }
  template <class T>
  EMBER_HOST_DEVICE Acc reduce(Acc a, T x, int64_t) const {
    return wrap_add(a, static_cast<Acc>(x));
  }
  EMBER_HOST_DEVICE Acc combine(Acc a, Acc b) const { return wrap_add(a, b); }
  EMBER_HOST_DEVICE Acc project(Acc a) const { return a; }
};

template <class Acc>
struct MeanOp : SumOp<Acc> {
  Acc count;  // of reduced elements; 0 gives NaN, as in PyTorch
  EMBER_HOST_DEVICE Acc project(Acc a) const { return a / count; }
};

template <class Acc>
struct ProdOp {
  EMBER_HOST_DEVICE Acc identity() const { return Acc(1); }
  template <class T>
  EMBER_HOST_DEVICE Acc reduce(Acc a, T x, int64_t) const {
    return wrap_mul(a, static_cast<Acc>(x));
  }
  EMBER_HOST_DEVICE Acc combine(Acc a, Acc b) const { return wrap_mul(a, b); }
  EMBER_HOST_DEVICE Acc project(Acc a) const { return a; }
};

// The smallest / largest value of T: infinities for floats so that an all -inf input stays -inf.
// Namespace-scope constants, because GPU code may read a constexpr scalar variable but not call
// numeric_limits' (host) functions.
template <class T>
inline constexpr T kLowest = std::is_floating_point_v<T> ? -std::numeric_limits<T>::infinity()
                                                         : std::numeric_limits<T>::lowest();
template <class T>
inline constexpr T kHighest = std::is_floating_point_v<T> ? std::numeric_limits<T>::infinity()
                                                          : std::numeric_limits<T>::max();
inline constexpr int64_t kNoIndex = std::numeric_limits<int64_t>::max();
template <class T>
EMBER_HOST_DEVICE inline T lowest() {
  return kLowest<T>;
}
template <class T>
EMBER_HOST_DEVICE inline T highest() {
  return kHighest<T>;
}

// amax/amin and max()/min(): NaN wins, as in PyTorch. Acc is the opmath type of the input.
template <class Acc, bool kMax>
struct ExtremumOp {
  EMBER_HOST_DEVICE Acc identity() const { return kMax ? lowest<Acc>() : highest<Acc>(); }
  EMBER_HOST_DEVICE Acc combine(Acc a, Acc b) const {
    if (is_nan(a)) return a;
    if (is_nan(b)) return b;
    if constexpr (kMax) return b > a ? b : a;
    else return b < a ? b : a;
  }
  template <class T>
  EMBER_HOST_DEVICE Acc reduce(Acc a, T x, int64_t) const {
    return combine(a, static_cast<Acc>(x));
  }
  EMBER_HOST_DEVICE Acc project(Acc a) const { return a; }
};

template <class T>
struct ValueIndex {
  T value;
  int64_t index;
};

// Whether an op's project() gives a value with its index (the arg-extremum ops).
template <class T>
struct IsValueIndex : std::false_type {};
template <class T>
struct IsValueIndex<ValueIndex<T>> : std::true_type {};

// argmax/argmin and max/min along a dim: the first NaN, else the first extreme value (ties go to
// the smaller index, so any split of the work gives PyTorch's answer).
template <class Acc, bool kMax>
struct ArgExtremumOp {
  EMBER_HOST_DEVICE ValueIndex<Acc> identity() const {
    return {kMax ? lowest<Acc>() : highest<Acc>(), kNoIndex};
  }
  EMBER_HOST_DEVICE ValueIndex<Acc> combine(ValueIndex<Acc> a, ValueIndex<Acc> b) const {
    bool a_nan = is_nan(a.value), b_nan = is_nan(b.value);
    if (a_nan || b_nan) {
      if (a_nan && b_nan) return a.index < b.index ? a : b;
      return a_nan ? a : b;
    }
    if (a.value == b.value) return a.index < b.index ? a : b;
    if constexpr (kMax) return b.value > a.value ? b : a;
    else return b.value < a.value ? b : a;
  }
  template <class T>
  EMBER_HOST_DEVICE ValueIndex<Acc> reduce(ValueIndex<Acc> a, T x, int64_t i) const {
    return combine(a, {static_cast<Acc>(x), i});
  }
  EMBER_HOST_DEVICE ValueIndex<Acc> project(ValueIndex<Acc> a) const { return a; }
};

template <class Acc>
struct AnyAllOp {
  bool is_all;
  EMBER_HOST_DEVICE bool identity() const { return is_all; }
  template <class T>
  EMBER_HOST_DEVICE bool reduce(bool a, T x, int64_t) const {
    bool nonzero = static_cast<Acc>(x) != Acc(0);
    return is_all ? (a && nonzero) : (a || nonzero);
  }
  EMBER_HOST_DEVICE bool combine(bool a, bool b) const { return is_all ? (a && b) : (a || b); }
  EMBER_HOST_DEVICE bool project(bool a) const { return a; }
};

// var/std: Welford's running mean and sum of squared deviations, merged with Chan's formula.
// Accumulates in double so float inputs keep their precision (PyTorch's CPU choice).
struct WelfordAcc {
  double mean;
  double m2;
  double n;
};
struct VarOp {
  double correction;
  bool take_sqrt;
  EMBER_HOST_DEVICE WelfordAcc identity() const { return {0.0, 0.0, 0.0}; }
  template <class T>
  EMBER_HOST_DEVICE WelfordAcc reduce(WelfordAcc a, T x, int64_t) const {
    double v = static_cast<double>(x);
    double n = a.n + 1.0;
    double delta = v - a.mean;
    double mean = a.mean + delta / n;
    return {mean, a.m2 + delta * (v - mean), n};
  }
  EMBER_HOST_DEVICE WelfordAcc combine(WelfordAcc a, WelfordAcc b) const {
    if (a.n == 0) return b;
    if (b.n == 0) return a;
    double n = a.n + b.n;
    double delta = b.mean - a.mean;
    double nb_over_n = b.n / n;
    return {a.mean + delta * nb_over_n, a.m2 + b.m2 + delta * delta * a.n * nb_over_n, n};
  }
  EMBER_HOST_DEVICE double project(WelfordAcc a) const {
    double dof = a.n - correction;
    double var = a.m2 / (dof > 0 ? dof : 0.0);
    return take_sqrt ? std::sqrt(var) : var;
  }
};

// Vector norms: sum |x|^p then ^(1/p), with the usual special cases (p = 0 counts non-zeros,
// p = +-inf is the max / min of |x|).
enum class NormKind { Zero, One, Two, Inf, NegInf, General };

template <class Acc, NormKind kind>
struct NormOp {
  Acc p;
  EMBER_HOST_DEVICE Acc identity() const {
    if constexpr (kind == NormKind::NegInf) return highest<Acc>();
    else return Acc(0);
  }
  EMBER_HOST_DEVICE Acc combine(Acc a, Acc b) const {
    if constexpr (kind == NormKind::Inf) return ExtremumOp<Acc, true>{}.combine(a, b);
    else if constexpr (kind == NormKind::NegInf) return ExtremumOp<Acc, false>{}.combine(a, b);
    else return a + b;
  }
  template <class T>
  EMBER_HOST_DEVICE Acc reduce(Acc a, T x, int64_t) const {
    Acc v = std::abs(static_cast<Acc>(x));
    if constexpr (kind == NormKind::Zero) return a + (v != Acc(0) ? Acc(1) : Acc(0));
    else if constexpr (kind == NormKind::One) return a + v;
    else if constexpr (kind == NormKind::Two) return a + v * v;
    else if constexpr (kind == NormKind::General) return a + std::pow(v, p);
    else return combine(a, v);
  }
  EMBER_HOST_DEVICE Acc project(Acc a) const {
    if constexpr (kind == NormKind::Two) return std::sqrt(a);
    else if constexpr (kind == NormKind::General) return std::pow(a, Acc(1) / p);
    else return a;
  }
};

// logsumexp in one pass: the running maximum and the sum of exp(x - max), rescaled when the
// maximum grows. Infinite maxima are handled as PyTorch does (log(sum(exp(x - m))) + m with
// infinite m treated as 0): +inf stays +inf, all -inf gives -inf.
template <class Acc>
struct LogSumExpAcc {
  Acc max;
  Acc sum;
};
template <class Acc>
struct LogSumExpOp {
  EMBER_HOST_DEVICE LogSumExpAcc<Acc> identity() const { return {lowest<Acc>(), Acc(0)}; }
  EMBER_HOST_DEVICE LogSumExpAcc<Acc> combine(LogSumExpAcc<Acc> a, LogSumExpAcc<Acc> b) const {
    if (is_nan(a.max)) return a;
    if (is_nan(b.max)) return b;
    if (b.max == lowest<Acc>()) return a;  // an empty part, or only -inf
    if (a.max == lowest<Acc>()) return b;
    if (a.max == b.max) return {a.max, a.sum + b.sum};  // also +inf with +inf
    if (a.max < b.max) return {b.max, b.sum + a.sum * std::exp(a.max - b.max)};
    return {a.max, a.sum + b.sum * std::exp(b.max - a.max)};
  }
  template <class T>
  EMBER_HOST_DEVICE LogSumExpAcc<Acc> reduce(LogSumExpAcc<Acc> a, T x, int64_t) const {
    return combine(a, {static_cast<Acc>(x), Acc(1)});
  }
  EMBER_HOST_DEVICE Acc project(LogSumExpAcc<Acc> a) const {
    if (a.max == lowest<Acc>()) return a.max;
    return a.max + std::log(a.sum);
  }
};

}  // namespace ember::kernels
