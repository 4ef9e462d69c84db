// The ops the differential test exercises: every op of ember's core API and of nn_ops.h and the
// losses, one entry per name (overloads are told apart by their arguments, e.g. sum(self) and
// sum(self, dim, keepdim)).
#pragma once

#include <cstdint>

namespace difftest {

// How an op computes, which sets how closely floating results must agree: elementwise ops round
// once per element; accumulating ops (sums, matrix products, normalisations) may add in another
// order than LibTorch does; movement ops only move or pick elements and must agree exactly.
enum class Family : int8_t { Elementwise, Accumulating, Movement };

// Which part of a runner calls the op (the same grouping in both runners).
enum class Group : int8_t { Binary, InPlace, Unary, Select, Reduction, Linalg, Shape, View, NN };

// X(enumerator, PyTorch's name, family, group), a table laid out by hand
// clang-format off
#define DIFFTEST_OPS(X)                                                                          \
  X(Add, "add", Elementwise, Binary) X(Sub, "sub", Elementwise, Binary)                          \
  X(Mul, "mul", Elementwise, Binary) X(Div, "div", Elementwise, Binary)                          \
  X(FloorDivide, "floor_divide", Elementwise, Binary)                                            \
  X(Remainder, "remainder", Elementwise, Binary) X(Pow, "pow", Elementwise, Binary)              \
  X(Maximum, "maximum", Elementwise, Binary) X(Minimum, "minimum", Elementwise, Binary)          \
  X(Eq, "eq", Elementwise, Binary) X(Ne, "ne", Elementwise, Binary)                              \
  X(Lt, "lt", Elementwise, Binary) X(Le, "le", Elementwise, Binary)                              \
  X(Gt, "gt", Elementwise, Binary) X(Ge, "ge", Elementwise, Binary)                              \
  X(LogicalAnd, "logical_and", Elementwise, Binary)                                              \
  X(LogicalOr, "logical_or", Elementwise, Binary)                                                \
  X(LogicalXor, "logical_xor", Elementwise, Binary) X(Fmod, "fmod", Elementwise, Binary)         \
  X(Atan2, "atan2", Elementwise, Binary) X(BitwiseAnd, "bitwise_and", Elementwise, Binary)       \
  X(BitwiseOr, "bitwise_or", Elementwise, Binary) X(BitwiseXor, "bitwise_xor", Elementwise, Binary) \
  X(BitwiseLeftShift, "bitwise_left_shift", Elementwise, Binary)                                 \
  X(BitwiseRightShift, "bitwise_right_shift", Elementwise, Binary)                               \
                                                                                                 \
  X(AddInplace, "add_", Elementwise, InPlace) X(SubInplace, "sub_", Elementwise, InPlace)        \
  X(MulInplace, "mul_", Elementwise, InPlace) X(DivInplace, "div_", Elementwise, InPlace)        \
  X(AddOut, "add_out", Elementwise, InPlace) X(MulOut, "mul_out", Elementwise, InPlace)          \
  X(ClampInplace, "clamp_", Elementwise, InPlace)                                                \
  X(MaskedFillInplace, "masked_fill_", Elementwise, InPlace)                                     \
                                                                                                 \
  X(Neg, "neg", Elementwise, Unary) X(Abs, "abs", Elementwise, Unary)                            \
  X(Sign, "sign", Elementwise, Unary) X(Exp, "exp", Elementwise, Unary)                          \
  X(Log, "log", Elementwise, Unary) X(Log1p, "log1p", Elementwise, Unary)                        \
  X(Expm1, "expm1", Elementwise, Unary) X(Sqrt, "sqrt", Elementwise, Unary)                      \
  X(Rsqrt, "rsqrt", Elementwise, Unary) X(Sin, "sin", Elementwise, Unary)                        \
  X(Cos, "cos", Elementwise, Unary) X(Tan, "tan", Elementwise, Unary)                            \
  X(Tanh, "tanh", Elementwise, Unary) X(Sigmoid, "sigmoid", Elementwise, Unary)                  \
  X(Relu, "relu", Elementwise, Unary) X(Gelu, "gelu", Elementwise, Unary)                        \
  X(Silu, "silu", Elementwise, Unary) X(Erf, "erf", Elementwise, Unary)                          \
  X(Mish, "mish", Elementwise, Unary) X(Hardsigmoid, "hardsigmoid", Elementwise, Unary)          \
  X(Hardswish, "hardswish", Elementwise, Unary) X(LogSigmoid, "log_sigmoid", Elementwise, Unary) \
  X(Floor, "floor", Elementwise, Unary) X(Ceil, "ceil", Elementwise, Unary)                      \
  X(Round, "round", Elementwise, Unary) X(Reciprocal, "reciprocal", Elementwise, Unary)          \
  X(Square, "square", Elementwise, Unary) X(LogicalNot, "logical_not", Elementwise, Unary)       \
  X(Exp2, "exp2", Elementwise, Unary) X(Log2, "log2", Elementwise, Unary)                        \
  X(Log10, "log10", Elementwise, Unary) X(Asin, "asin", Elementwise, Unary)                      \
  X(Acos, "acos", Elementwise, Unary) X(Atan, "atan", Elementwise, Unary)                        \
  X(Sinh, "sinh", Elementwise, Unary) X(Cosh, "cosh", Elementwise, Unary)                        \
  X(Trunc, "trunc", Elementwise, Unary) X(Frac, "frac", Elementwise, Unary)                      \
  X(BitwiseNot, "bitwise_not", Elementwise, Unary) X(Isnan, "isnan", Elementwise, Unary)         \
  X(Isinf, "isinf", Elementwise, Unary) X(Isfinite, "isfinite", Elementwise, Unary)              \
                                                                                                 \
  X(Clamp, "clamp", Elementwise, Select) X(Where, "where", Elementwise, Select)                  \
  X(MaskedFill, "masked_fill", Elementwise, Select)                                              \
                                                                                                 \
  X(Sum, "sum", Accumulating, Reduction) X(Mean, "mean", Accumulating, Reduction)                \
  X(Prod, "prod", Accumulating, Reduction) X(Amax, "amax", Movement, Reduction)                  \
  X(Amin, "amin", Movement, Reduction) X(Max, "max", Movement, Reduction)                        \
  X(Min, "min", Movement, Reduction) X(Argmax, "argmax", Movement, Reduction)                    \
  X(Argmin, "argmin", Movement, Reduction) X(Var, "var", Accumulating, Reduction)                \
  X(Std, "std", Accumulating, Reduction) X(Norm, "norm", Accumulating, Reduction)                \
  X(All, "all", Movement, Reduction) X(Any, "any", Movement, Reduction)                          \
  X(Logsumexp, "logsumexp", Accumulating, Reduction)                                             \
  X(Cumsum, "cumsum", Accumulating, Reduction) X(Softmax, "softmax", Accumulating, Reduction)    \
  X(Cumprod, "cumprod", Accumulating, Reduction)                                                 \
  X(LogSoftmax, "log_softmax", Accumulating, Reduction)                                          \
                                                                                                 \
  X(Matmul, "matmul", Accumulating, Linalg) X(Mm, "mm", Accumulating, Linalg)                    \
  X(Bmm, "bmm", Accumulating, Linalg) X(Mv, "mv", Accumulating, Linalg)                          \
  X(Dot, "dot", Accumulating, Linalg) X(Addmm, "addmm", Accumulating, Linalg)                    \
  X(Linear, "linear", Accumulating, Linalg)                                                      \
                                                                                                 \
  X(Cat, "cat", Movement, Shape) X(Stack, "stack", Movement, Shape)                              \
  X(Split, "split", Movement, Shape) X(Chunk, "chunk", Movement, Shape)                          \
  X(IndexSelect, "index_select", Movement, Shape) X(Gather, "gather", Movement, Shape)           \
  X(Scatter, "scatter", Movement, Shape) X(ScatterAdd, "scatter_add", Accumulating, Shape)       \
  X(OneHot, "one_hot", Movement, Shape) X(Sort, "sort", Movement, Shape)                         \
  X(Argsort, "argsort", Movement, Shape) X(Topk, "topk", Movement, Shape)                        \
  X(Flip, "flip", Movement, Shape) X(Repeat, "repeat", Movement, Shape)                          \
  X(Tril, "tril", Movement, Shape) X(Triu, "triu", Movement, Shape)                              \
  X(Nonzero, "nonzero", Movement, Shape)                                                         \
  X(MaskedSelect, "masked_select", Movement, Shape)                                              \
                                                                                                 \
  X(View, "view", Movement, View) X(Reshape, "reshape", Movement, View)                          \
  X(Flatten, "flatten", Movement, View) X(Transpose, "transpose", Movement, View)                \
  X(T, "t", Movement, View) X(Permute, "permute", Movement, View)                                \
  X(Squeeze, "squeeze", Movement, View) X(Unsqueeze, "unsqueeze", Movement, View)                \
  X(Expand, "expand", Movement, View) X(Narrow, "narrow", Movement, View)                        \
  X(Select, "select", Movement, View) X(Slice, "slice", Movement, View)                          \
  X(Index, "index", Movement, View) X(To, "to", Elementwise, View)                               \
  X(Contiguous, "contiguous", Movement, View) X(Clone, "clone", Movement, View)                  \
                                                                                                 \
  X(Conv2d, "conv2d", Accumulating, NN) X(MaxPool2d, "max_pool2d", Movement, NN)                 \
  X(AvgPool2d, "avg_pool2d", Accumulating, NN) X(LayerNorm, "layer_norm", Accumulating, NN)      \
  X(BatchNorm, "batch_norm", Accumulating, NN) X(Embedding, "embedding", Movement, NN)           \
  X(MseLoss, "mse_loss", Accumulating, NN) X(NllLoss, "nll_loss", Accumulating, NN)              \
  X(CrossEntropy, "cross_entropy", Accumulating, NN)                                             \
  X(BceWithLogits, "binary_cross_entropy_with_logits", Accumulating, NN)                        \
  X(LeakyRelu, "leaky_relu", Elementwise, NN) X(Elu, "elu", Elementwise, NN)                     \
  X(Selu, "selu", Elementwise, NN) X(Celu, "celu", Elementwise, NN)                              \
  X(Hardtanh, "hardtanh", Elementwise, NN) X(Relu6, "relu6", Elementwise, NN)                    \
  X(Softplus, "softplus", Elementwise, NN) X(Threshold, "threshold", Elementwise, NN)            \
  X(Softshrink, "softshrink", Elementwise, NN) X(Hardshrink, "hardshrink", Elementwise, NN)      \
  X(Softsign, "softsign", Elementwise, NN) X(Tanhshrink, "tanhshrink", Elementwise, NN)          \
  X(Glu, "glu", Elementwise, NN) X(Prelu, "prelu", Elementwise, NN)                             \
  X(Rrelu, "rrelu", Elementwise, NN)                                                             \
  X(GroupNorm, "group_norm", Accumulating, NN)                                                   \
  X(InstanceNorm, "instance_norm", Accumulating, NN)                                             \
  X(LocalResponseNorm, "local_response_norm", Accumulating, NN)                                  \
  X(CosineSimilarity, "cosine_similarity", Accumulating, NN)                                     \
  X(PairwiseDistance, "pairwise_distance", Accumulating, NN)                                     \
  X(PixelShuffle, "pixel_shuffle", Movement, NN)                                                 \
                                                                                                 \
  X(Pad, "pad", Movement, NN) X(Bilinear, "bilinear", Accumulating, NN)                          \
  X(Fold, "fold", Accumulating, NN) X(Unfold, "unfold", Movement, NN)                            \
  X(Conv1d, "conv1d", Accumulating, NN) X(MaxPool1d, "max_pool1d", Movement, NN)                 \
  X(AvgPool1d, "avg_pool1d", Accumulating, NN)                                                   \
  X(AdaptiveAvgPool2d, "adaptive_avg_pool2d", Accumulating, NN)                                  \
  X(AdaptiveMaxPool2d, "adaptive_max_pool2d", Movement, NN)                                      \
  X(LstmCell, "lstm_cell", Accumulating, NN) X(GruCell, "gru_cell", Accumulating, NN)            \
  X(RnnTanhCell, "rnn_tanh_cell", Accumulating, NN)                                              \
  X(ConvTranspose2d, "conv_transpose2d", Accumulating, NN) X(Conv3d, "conv3d", Accumulating, NN) \
  X(Interpolate, "interpolate", Accumulating, NN) X(GridSample, "grid_sample", Accumulating, NN) \
                                                                                                 \
  X(L1Loss, "l1_loss", Accumulating, NN) X(SmoothL1Loss, "smooth_l1_loss", Accumulating, NN)     \
  X(HuberLoss, "huber_loss", Accumulating, NN)                                                   \
  X(Bce, "binary_cross_entropy", Accumulating, NN) X(KlDiv, "kl_div", Accumulating, NN)          \
  X(SoftMarginLoss, "soft_margin_loss", Accumulating, NN)                                        \
  X(MarginRankingLoss, "margin_ranking_loss", Accumulating, NN)                                  \
  X(HingeEmbeddingLoss, "hinge_embedding_loss", Accumulating, NN)                                \
  X(CosineEmbeddingLoss, "cosine_embedding_loss", Accumulating, NN)                              \
  X(MultiLabelSoftMarginLoss, "multilabel_soft_margin_loss", Accumulating, NN)                   \
  X(PoissonNllLoss, "poisson_nll_loss", Accumulating, NN)                                        \
  X(TripletMarginLoss, "triplet_margin_loss", Accumulating, NN)                                  \
  X(MultiMarginLoss, "multi_margin_loss", Accumulating, NN)                                      \
  X(MultiLabelMarginLoss, "multilabel_margin_loss", Accumulating, NN)

// The unary ops and the binary ops without alpha as both runners call them: X(enumerator, the
// function and method name). Each is called as a function or, where the program says
// (`method`), as a method.
#define DIFFTEST_UNARY_CALLS(X)                                                                  \
  X(Neg, neg) X(Abs, abs) X(Sign, sign) X(Exp, exp) X(Log, log) X(Log1p, log1p) X(Expm1, expm1)  \
  X(Sqrt, sqrt) X(Rsqrt, rsqrt) X(Sin, sin) X(Cos, cos) X(Tan, tan) X(Tanh, tanh)                \
  X(Sigmoid, sigmoid) X(Relu, relu) X(Erf, erf) X(Floor, floor)      \
  X(Ceil, ceil) X(Round, round) X(Reciprocal, reciprocal) X(Square, square)                      \
  X(LogicalNot, logical_not) X(Exp2, exp2) X(Log2, log2) X(Log10, log10) X(Asin, asin)           \
  X(Acos, acos) X(Atan, atan) X(Sinh, sinh) X(Cosh, cosh) X(Trunc, trunc) X(Frac, frac)          \
  X(BitwiseNot, bitwise_not) X(Isnan, isnan) X(Isinf, isinf) X(Isfinite, isfinite)
// LibTorch has these as functions only
#define DIFFTEST_UNARY_FUNCTION_CALLS(X)                                                         \
  X(Gelu, gelu) X(Silu, silu) X(Mish, mish) X(Hardsigmoid, hardsigmoid) X(Hardswish, hardswish) \
  X(LogSigmoid, log_sigmoid)
// `other` a tensor or a number
#define DIFFTEST_BINARY_CALLS(X)                                                                 \
  X(Mul, mul) X(Div, div) X(FloorDivide, floor_divide) X(Remainder, remainder) X(Pow, pow)       \
  X(Eq, eq) X(Ne, ne) X(Lt, lt) X(Le, le) X(Gt, gt) X(Ge, ge) X(Fmod, fmod)                      \
  X(BitwiseAnd, bitwise_and) X(BitwiseOr, bitwise_or) X(BitwiseXor, bitwise_xor)                 \
  X(BitwiseLeftShift, bitwise_left_shift) X(BitwiseRightShift, bitwise_right_shift)
// `other` a tensor only
#define DIFFTEST_BINARY_TENSOR_CALLS(X)                                                          \
  X(Maximum, maximum) X(Minimum, minimum) X(LogicalAnd, logical_and) X(LogicalOr, logical_or)    \
  X(LogicalXor, logical_xor) X(Atan2, atan2)
// clang-format on

enum class OpKind : int16_t {
#define DIFFTEST_ENUM(e, name, family, group) e,
  DIFFTEST_OPS(DIFFTEST_ENUM)
#undef DIFFTEST_ENUM
};

inline constexpr int kNumOps = 0
#define DIFFTEST_COUNT(e, name, family, group) +1
    DIFFTEST_OPS(DIFFTEST_COUNT)
#undef DIFFTEST_COUNT
    ;

const char* op_name(OpKind op);
Family op_family(OpKind op);
Group op_group(OpKind op);
bool is_loss(
    OpKind op);  // the *_loss ops, cross_entropy, binary_cross_entropy(_with_logits), kl_div

}  // namespace difftest
