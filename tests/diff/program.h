// An op program: one op of ember's API applied to input tensors, described with plain C++ values
// only, so that the ember runner (C++20) and the LibTorch runner (C++17) can both interpret it
// without ever seeing each other's headers.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "op_kind.h"

namespace difftest {

// ember's dtypes, in ember's order (ember::ScalarType and at::ScalarType are mapped by each
// runner).
enum class DType : int8_t {
  Bool,
  UInt8,
  Int8,
  Int16,
  Int32,
  Int64,
  Float16,
  BFloat16,
  Float32,
  Float64,
};
inline constexpr int kNumDTypes = 10;
const char* dtype_name(DType t);  // "float16", "int64", ... (Python's names)
bool is_floating(DType t);

using Shape = std::vector<int64_t>;
int64_t numel(const Shape& s);

// One step from an input's contiguous base tensor towards the operand the op sees; each is a
// view, so the operand is non-contiguous (transposed, strided, broadcast) while sharing memory.
struct ViewStep {
  enum class Kind : int8_t { Transpose, Permute, Slice, Expand };
  Kind kind;
  // Transpose: {dim0, dim1}; Permute: the order; Slice: {dim, start, end, step}; Expand: shape.
  std::vector<int64_t> args;
};

struct Input {
  DType dtype = DType::Float32;
  Shape base_shape;
  std::vector<double> values;  // the base's elements, row-major, exactly representable in dtype
  std::vector<ViewStep> views;
  bool requires_grad = false;  // set on the base, which is the leaf whose .grad is compared
};

// A Python-style number: its kind takes part in type promotion (int tensor + 2.5 is float).
struct ScalarArg {
  enum class Kind : int8_t { Bool, Int, Float };
  Kind kind;
  double value;
};

// An argument of the op. Tensors and tensor lists name inputs by index.
struct TensorRef {
  int index;
};
struct TensorListRef {
  std::vector<int> indices;
};
struct IntList {
  std::vector<int64_t> values;
};
struct NoneArg {};  // an optional argument left out (dtype=None, min=None, ...)
// One entry of Tensor::index({...}): an integer, a slice, None (new axis) or an ellipsis.
struct IndexItem {
  enum class Kind : int8_t { Integer, Slice, NewAxis, Ellipsis, Tensor };
  Kind kind;
  int64_t integer = 0;
  int tensor = -1;  // Tensor: the input that indexes (int64; several broadcast together)
  bool has_start = false, has_stop = false;
  int64_t start = 0, stop = 0, step = 1;
};
struct IndexList {
  std::vector<IndexItem> items;
};

using ArgValue = std::variant<TensorRef, TensorListRef, int64_t, IntList, ScalarArg, bool, DType,
                              NoneArg, IndexList>;
struct Arg {
  const char* name;  // as in PyTorch's signature: "self", "dim", "keepdim", ...
  ArgValue value;
};

struct Program {
  std::vector<Input> inputs;
  OpKind op;
  std::vector<Arg> args;
  // After the op, backward() from the floating outputs that require grad, each weighted by
  // grad_weights() so that a wrongly permuted gradient cannot hide behind a uniform sum.
  bool backward = false;
};

// The upstream gradient for an output of n elements: 1, 1.125, ..., 1.75, 1, ... (exact in every
// floating dtype, and not symmetric under any permutation of a small tensor's elements).
std::vector<double> grad_weights(int64_t numel);

// The program as readable pseudo-code, one line per input and one for the op.
std::string to_string(const Program& p);
// The shortest text that reads back as the same double ("0.1", "inf", "nan", "-0"), and a list
// of integers as "[2, 3]": the reports' spelling of values and shapes.
std::string to_text(double v);
std::string to_text(const std::vector<int64_t>& v);

// Typed access to the op's arguments for the runners (no checking beyond std::get).
const Arg& arg(const Program& p, const char* name);
bool has_arg(const Program& p, const char* name);
template <class T>
const T& get(const Program& p, const char* name) {
  return std::get<T>(arg(p, name).value);
}
template <class T>
bool holds(const Program& p, const char* name) {
  return has_arg(p, name) && std::holds_alternative<T>(arg(p, name).value);
}
// The input a tensor argument names, or nullptr where the argument is not a tensor.
const Input* input_arg(const Program& p, const char* name);

// The library-independent readers of an op's arguments; each runner adds its tensors, numbers
// and dtypes. Optional arguments may be left out or given as None.
struct ArgReader {
  const Program& p;

  bool has(const char* name) const { return has_arg(p, name); }
  bool is_scalar(const char* name) const { return holds<ScalarArg>(p, name); }
  bool is_none(const char* name) const { return holds<NoneArg>(p, name); }
  bool given(const char* name) const { return has(name) && !is_none(name); }
  int64_t integer(const char* name) const { return get<int64_t>(p, name); }
  std::optional<int64_t> optional_integer(const char* name) const {
    return given(name) ? std::optional<int64_t>(integer(name)) : std::nullopt;
  }
  const std::vector<int64_t>& ints(const char* name) const { return get<IntList>(p, name).values; }
  bool flag(const char* name) const { return get<bool>(p, name); }
  bool flag_or_false(const char* name) const { return has(name) && flag(name); }
};

}  // namespace difftest
