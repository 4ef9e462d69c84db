// Names, argument look-up and the readable form of an op program.
#include "program.h"

#include <charconv>
#include <cstring>
#include <stdexcept>

namespace difftest {
namespace {

constexpr const char* kDTypeNames[kNumDTypes] = {"bool",    "uint8",  "int8",    "int16",
                                                 "int32",   "int64",  "float16", "bfloat16",
                                                 "float32", "float64"};

template <class T, class F>
std::string joined(const std::vector<T>& items, F format) {
  std::string s;
  for (size_t i = 0; i < items.size(); ++i) s += (i ? ", " : "") + format(items[i]);
  return s;
}

std::string view_step(const ViewStep& v) {
  auto args = joined(v.args, [](int64_t x) { return std::to_string(x); });
  switch (v.kind) {
    case ViewStep::Kind::Transpose: return ".transpose(" + args + ")";
    case ViewStep::Kind::Permute: return ".permute({" + args + "})";
    case ViewStep::Kind::Slice: return ".slice(" + args + ")";  // dim, start, end, step
    case ViewStep::Kind::Expand: return ".expand({" + args + "})";
  }
  return "";
}

std::string index_item(const IndexItem& i) {
  switch (i.kind) {
    case IndexItem::Kind::Integer: return std::to_string(i.integer);
    case IndexItem::Kind::NewAxis: return "None";
    case IndexItem::Kind::Ellipsis: return "...";
    case IndexItem::Kind::Tensor: return "x" + std::to_string(i.tensor);
    case IndexItem::Kind::Slice:
      return (i.has_start ? std::to_string(i.start) : "") + ":" +
             (i.has_stop ? std::to_string(i.stop) : "") + ":" + std::to_string(i.step);
  }
  return "";
}

std::string value(const ArgValue& v) {
  struct Printer {
    std::string operator()(TensorRef t) const { return "x" + std::to_string(t.index); }
    std::string operator()(const TensorListRef& l) const {
      return "[" + joined(l.indices, [](int i) { return "x" + std::to_string(i); }) + "]";
    }
    std::string operator()(int64_t i) const { return std::to_string(i); }
    std::string operator()(const IntList& l) const { return to_text(l.values); }
    std::string operator()(ScalarArg s) const {
      switch (s.kind) {
        case ScalarArg::Kind::Bool: return s.value != 0 ? "True" : "False";
        case ScalarArg::Kind::Int: return std::to_string(static_cast<int64_t>(s.value));
        case ScalarArg::Kind::Float: {
          std::string n = to_text(s.value);  // keep a float looking like one: 2.0, not 2
          return n.find_first_of(".ena") == std::string::npos ? n + ".0" : n;
        }
      }
      return "";
    }
    std::string operator()(bool b) const { return b ? "True" : "False"; }
    std::string operator()(DType t) const { return dtype_name(t); }
    std::string operator()(NoneArg) const { return "None"; }
    std::string operator()(const IndexList& l) const {
      return "[" + joined(l.items, index_item) + "]";
    }
  };
  return std::visit(Printer{}, v);
}

}  // namespace

const char* dtype_name(DType t) { return kDTypeNames[static_cast<int>(t)]; }

std::string to_text(double v) {
  char buf[32];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, end);
}

std::string to_text(const std::vector<int64_t>& v) {
  return "[" + joined(v, [](int64_t x) { return std::to_string(x); }) + "]";
}

int64_t numel(const Shape& s) {
  int64_t n = 1;
  for (int64_t d : s) n *= d;
  return n;
}

bool is_floating(DType t) {
  return t == DType::Float16 || t == DType::BFloat16 || t == DType::Float32 || t == DType::Float64;
}

const char* op_name(OpKind op) {
  switch (op) {
#define DIFFTEST_NAME(e, name, family, group) \
  case OpKind::e: return name;
    DIFFTEST_OPS(DIFFTEST_NAME)
#undef DIFFTEST_NAME
  }
  return "?";
}

Family op_family(OpKind op) {
  switch (op) {
#define DIFFTEST_FAMILY(e, name, family, group) \
  case OpKind::e: return Family::family;
    DIFFTEST_OPS(DIFFTEST_FAMILY)
#undef DIFFTEST_FAMILY
  }
  return Family::Elementwise;
}

Group op_group(OpKind op) {
  switch (op) {
#define DIFFTEST_GROUP(e, name, family, group) \
  case OpKind::e: return Group::group;
    DIFFTEST_OPS(DIFFTEST_GROUP)
#undef DIFFTEST_GROUP
  }
  return Group::View;
}

bool is_loss(OpKind op) {
  switch (op) {
    case OpKind::MseLoss:
    case OpKind::NllLoss:
    case OpKind::CrossEntropy:
    case OpKind::BceWithLogits:
    case OpKind::L1Loss:
    case OpKind::SmoothL1Loss:
    case OpKind::HuberLoss:
    case OpKind::Bce:
    case OpKind::KlDiv:
    case OpKind::SoftMarginLoss:
    case OpKind::MarginRankingLoss:
    case OpKind::HingeEmbeddingLoss:
    case OpKind::CosineEmbeddingLoss:
    case OpKind::MultiLabelSoftMarginLoss:
    case OpKind::PoissonNllLoss:
    case OpKind::TripletMarginLoss:
    case OpKind::MultiMarginLoss:
    case OpKind::MultiLabelMarginLoss: return true;
    default: return false;
  }
}

std::vector<double> grad_weights(int64_t numel) {
  std::vector<double> w(static_cast<size_t>(numel));
  for (size_t i = 0; i < w.size(); ++i) w[i] = 1.0 + static_cast<double>(i % 7) / 8.0;
  return w;
}

const Arg& arg(const Program& p, const char* name) {
  for (const Arg& a : p.args)
    if (std::strcmp(a.name, name) == 0) return a;
  throw std::logic_error(std::string("difftest: op ") + op_name(p.op) + " has no argument " + name);
}

bool has_arg(const Program& p, const char* name) {
  for (const Arg& a : p.args)
    if (std::strcmp(a.name, name) == 0) return true;
  return false;
}

const Input* input_arg(const Program& p, const char* name) {
  if (!holds<TensorRef>(p, name)) return nullptr;
  return &p.inputs[static_cast<size_t>(get<TensorRef>(p, name).index)];
}

std::string to_string(const Program& p) {
  std::string s;
  for (size_t i = 0; i < p.inputs.size(); ++i) {
    const Input& in = p.inputs[i];
    s += "  x" + std::to_string(i) + " = " + dtype_name(in.dtype) + to_text(in.base_shape) + " {" +
         joined(in.values, [](double v) { return to_text(v); }) + "}";
    for (const ViewStep& v : in.views) s += view_step(v);
    if (in.requires_grad) s += "  requires_grad";
    s += "\n";
  }
  s += std::string("  out = ") + op_name(p.op) + "(" +
       joined(p.args, [](const Arg& a) { return std::string(a.name) + "=" + value(a.value); }) +
       ")";
  if (p.backward) s += "\n  out.backward(gradient = 1 + (flat index % 7) / 8), then compare x.grad";
  return s + "\n";
}

}  // namespace difftest
