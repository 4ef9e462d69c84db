// Backward formulas of the ops that move elements without computing on them: views
// (ops/view.cpp), cat and stack (ops/join.cpp), flip and repeat (ops/rearrange.cpp), tril and
// triu (ops/triangle.cpp), copies and fill_ (ops/copy.cpp). Each moves the gradient back the
// way the op moved the values. None saves a tensor.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "autograd/record.h"

namespace ember::autograd::functions {

// ViewBackward0 (view, reshape), SqueezeBackward0 and SqueezeBackward1: the gradient reshaped
// to the input's shape.
struct ReshapeBackward {
  std::vector<int64_t> input;  // the input's shape
  Grads operator()(const Context& c) const;
};

// TransposeBackward0: the gradient transposed back.
struct TransposeBackward0 {
  static constexpr const char* kName = "TransposeBackward0";
  int64_t dim0, dim1;
  Grads operator()(const Context& c) const;
};

// TBackward0: the gradient's transpose.
struct TBackward0 {
  static constexpr const char* kName = "TBackward0";
  Grads operator()(const Context& c) const;
};

// PermuteBackward0: the gradient permuted by the inverse permutation.
struct PermuteBackward0 {
  static constexpr const char* kName = "PermuteBackward0";
  std::vector<int64_t> inverse;
  Grads operator()(const Context& c) const;
};

// UnsqueezeBackward0: the gradient with the added dim squeezed away.
struct UnsqueezeBackward0 {
  static constexpr const char* kName = "UnsqueezeBackward0";
  int64_t dim;
  Grads operator()(const Context& c) const;
};

// ExpandBackward0: the gradient summed over the expanded dims (autograd::sum_to).
struct ExpandBackward0 {
  static constexpr const char* kName = "ExpandBackward0";
  std::vector<int64_t> input;  // the input's shape
  Grads operator()(const Context& c) const;
};

// SelectBackward0: zeros of the input's shape with the gradient at the selected index.
struct SelectBackward0 {
  static constexpr const char* kName = "SelectBackward0";
  std::vector<int64_t> input;  // the input's shape
  int64_t dim, index;          // wrapped
  Grads operator()(const Context& c) const;
};

// SliceBackward0: zeros of the input's shape with the gradient in the slice.
struct SliceBackward0 {
  static constexpr const char* kName = "SliceBackward0";
  std::vector<int64_t> input;     // the input's shape
  int64_t dim, start, end, step;  // wrapped and clamped
  Grads operator()(const Context& c) const;
};

// CatBackward0: each input's part of the gradient (an empty one for a legacy empty input).
struct CatBackward0 {
  static constexpr const char* kName = "CatBackward0";
  int64_t dim;
  std::vector<std::pair<int64_t, int64_t>> ranges;  // each input's [offset, length) along dim;
                                                    // length -1: a legacy empty input
  Grads operator()(const Context& c) const;
};

// StackBackward0: the gradient's slices along the stacked dim, one per input.
struct StackBackward0 {
  static constexpr const char* kName = "StackBackward0";
  int64_t dim;
  Grads operator()(const Context& c) const;
};

// FlipBackward0: the gradient flipped back.
struct FlipBackward0 {
  static constexpr const char* kName = "FlipBackward0";
  std::vector<int64_t> dims;  // the flipped dims of two or more elements
  Grads operator()(const Context& c) const;
};

// RepeatBackward0: every copy's gradient summed back into the element it copied.
struct RepeatBackward0 {
  static constexpr const char* kName = "RepeatBackward0";
  std::vector<int64_t> tiled;  // the result's shape with each dim split as [repeats, size]
  std::vector<int64_t> input;  // the input's shape
  Grads operator()(const Context& c) const;
};

// TrilBackward0 and TriuBackward0: the gradient's same triangle, the rest zero.
struct TriangleBackward {
  bool lower;
  int64_t diagonal;
  Grads operator()(const Context& c) const;
};

// ToCopyBackward0 and CloneBackward0: the gradient unchanged (the engine casts it to the
// input's dtype and moves it to the input's device).
struct IdentityBackward {
  Grads operator()(const Context& c) const;
};

// FillBackward0: zero, since fill_ overwrote every value that came before.
struct FillBackward0 {
  static constexpr const char* kName = "FillBackward0";
  Grads operator()(const Context& c) const;
};

}  // namespace ember::autograd::functions
