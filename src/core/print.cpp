// Printing tensors exactly as PyTorch's repr does (torch/_tensor_str.py, unchanged in its
// default behaviour from 1.13 to 2.x); see PYTORCH.md A14. Numbers are formatted with
// std::to_chars, which rounds like Python's format() and ignores the C locale.
#include "core/print.h"
#include "core/tensor_impl.h"
#include "ember/autograd.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <ostream>
#include <vector>

namespace ember {
namespace detail {
namespace {

// Python's names, as the repr shows them: "torch.float32", "torch.int64", ...
const char* python_dtype_name(ScalarType t) {
  constexpr const char* names[kNumScalarTypes] = {
      "torch.bool",  "torch.uint8",   "torch.int8",     "torch.int16",   "torch.int32",
      "torch.int64", "torch.float16", "torch.bfloat16", "torch.float32", "torch.float64"};
  return names[static_cast<int>(t)];
}

// torch._tensor_str.PRINT_OPTS defaults (ember has no set_printoptions).
constexpr int kPrecision = 4;
constexpr int64_t kThreshold = 1000;
constexpr int64_t kEdgeItems = 3;
constexpr int64_t kLineWidth = 80;
constexpr int64_t kPrefixLen = 7;  // len("tensor("): the indent of nested rows and wrapped suffixes

// Python's "{:.Nf}" / "{:.Ne}" for finite values. 400 chars hold any double in fixed notation.
std::string format_double(double v, std::chars_format fmt, int precision) {
  char buf[400];
  auto res = std::to_chars(buf, buf + sizeof buf, v, fmt, precision);
  return std::string(buf, res.ptr);
}

// One element of the host tensor as double or int64 (the types Python's tolist() gives).
double read_double(const char* p, ScalarType t) { return detail::load_scalar(p, t).toDouble(); }
int64_t read_int(const char* p, ScalarType t) { return detail::load_scalar(p, t).toLong(); }

// The elements of a CPU tensor, walked through its strides so views print without a copy.
struct HostView {
  const char* data;
  ScalarType dtype;
  IntArrayRef sizes;
  IntArrayRef strides;
  bool summarize;  // more than kThreshold elements: show kEdgeItems at each end of long dims

  int64_t ndim() const { return static_cast<int64_t>(sizes.size()); }
  const char* at(const char* base, int64_t d, int64_t i) const {
    return base + i * strides[static_cast<size_t>(d)] * static_cast<int64_t>(elementSize(dtype));
  }
  bool elided(int64_t d) const {
    return summarize && sizes[static_cast<size_t>(d)] > 2 * kEdgeItems;
  }
  // The indices shown along dim d; -1 stands for the "..." between the two ends.
  std::vector<int64_t> shown(int64_t d) const {
    int64_t n = sizes[static_cast<size_t>(d)];
    std::vector<int64_t> idx;
    if (!elided(d)) {
      for (int64_t i = 0; i < n; ++i) idx.push_back(i);
      return idx;
    }
    for (int64_t i = 0; i < kEdgeItems; ++i) idx.push_back(i);
    idx.push_back(-1);
    for (int64_t i = n - kEdgeItems; i < n; ++i) idx.push_back(i);
    return idx;
  }
  // Every element that will be printed (get_summarized_data), which the formatter sizes to.
  void collect(const char* base, int64_t d, std::vector<const char*>& out) const {
    if (d == ndim()) {
      out.push_back(base);
      return;
    }
    for (int64_t i : shown(d))
      if (i >= 0) collect(at(base, d, i), d + 1, out);
  }
};

// torch._tensor_str._Formatter: picks int / fixed / scientific mode and one width for all
// printed elements, so columns line up.
class Formatter {
 public:
  Formatter(ScalarType dtype, const std::vector<const char*>& elems)
      : dtype_(dtype), floating_(isFloatingType(dtype)) {
    if (!floating_) {
      for (const char* p : elems) max_width_ = std::max(max_width_, text(p).size());
      return;
    }
    // Only non-zero finite values decide the mode; zeros and nan/inf print in whatever it is.
    std::vector<double> vals;
    for (const char* p : elems) {
      double v = read_double(p, dtype);
      if (std::isfinite(v) && v != 0) vals.push_back(v);
    }
    if (vals.empty()) return;
    double min_abs = INFINITY, max_abs = 0;
    for (double v : vals) {
      min_abs = std::min(min_abs, std::abs(v));
      max_abs = std::max(max_abs, std::abs(v));
      if (v != std::ceil(v)) int_mode_ = false;
    }
    sci_mode_ = max_abs / min_abs > 1000.0 || max_abs > 1.0e8 || (!int_mode_ && min_abs < 1.0e-4);
    // In int mode the width counts the "." that text() appends.
    for (double v : vals) max_width_ = std::max(max_width_, float_text(v).size());
  }

  // The element right-aligned to the common width.
  std::string format(const char* p) const {
    std::string s = text(p);
    return std::string(max_width_ > s.size() ? max_width_ - s.size() : 0, ' ') + s;
  }
  size_t width() const { return max_width_; }

 private:
  std::string text(const char* p) const {
    if (floating_) return float_text(read_double(p, dtype_));
    int64_t v = read_int(p, dtype_);
    if (dtype_ == kBool) return v ? "True" : "False";
    return std::to_string(v);
  }
  std::string float_text(double v) const {
    // Python prints every nan unsigned (C's printf would give "-nan").
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    if (sci_mode_) return format_double(v, std::chars_format::scientific, kPrecision);
    if (int_mode_) return format_double(v, std::chars_format::fixed, 0) + ".";
    return format_double(v, std::chars_format::fixed, kPrecision);
  }

  ScalarType dtype_;
  bool floating_;
  bool int_mode_ = true;
  bool sci_mode_ = false;
  size_t max_width_ = 1;
};

// _tensor_str_with_formatter: appends the sub-tensor at `base` from dim d on, its rows indented
// by `indent` + 1. (Appending also sidesteps GCC 12's false -Wrestrict on "[" + std::string.)
void append_body(const HostView& v, const Formatter& f, const char* base, int64_t d, int64_t indent,
                 std::string& out) {
  if (v.ndim() == 0) {
    out += f.format(base);
    return;
  }
  const std::string row_indent(static_cast<size_t>(indent + 1), ' ');
  out += '[';
  if (d == v.ndim() - 1) {  // _vector_str: as many elements per line as fit in the line width
    int64_t element_len = static_cast<int64_t>(f.width()) + 2;  // ", " included
    auto per_line = std::max<int64_t>(
        1, static_cast<int64_t>(std::floor(static_cast<double>(kLineWidth - indent) /
                                           static_cast<double>(element_len))));
    int64_t k = 0;
    for (int64_t i : v.shown(d)) {
      if (k > 0) out += k % per_line == 0 ? ",\n" + row_indent : std::string(", ");
      out += i < 0 ? std::string(" ...") : f.format(v.at(base, d, i));
      ++k;
    }
  } else {
    // One blank line between 3-d blocks, two between 4-d blocks, ...
    const std::string sep =
        "," + std::string(static_cast<size_t>(v.ndim() - d - 1), '\n') + row_indent;
    bool first = true;
    for (int64_t i : v.shown(d)) {
      if (!first) out += sep;
      first = false;
      if (i < 0) out += "...";
      else append_body(v, f, v.at(base, d, i), d + 1, indent + 1, out);
    }
  }
  out += ']';
}

// _add_suffixes. PyTorch counts the last line as its length + 2; copying that keeps the wrap
// points identical.
std::string add_suffixes(std::string text, const std::vector<std::string>& suffixes) {
  size_t nl = text.rfind('\n');
  int64_t last_line_len = static_cast<int64_t>(text.size()) -
                          (nl == std::string::npos ? -1 : static_cast<int64_t>(nl)) + 1;
  for (const std::string& suffix : suffixes) {
    auto len = static_cast<int64_t>(suffix.size());
    if (last_line_len + len + 2 > kLineWidth) {
      text += ",\n" + std::string(kPrefixLen, ' ') + suffix;
      last_line_len = kPrefixLen + len;
    } else {
      text += ", " + suffix;
      last_line_len += len + 2;
    }
  }
  return text + ")";
}

// The one place that reads a tensor's autograd state for printing.
ReprInfo repr_info(const Tensor& t) {
  std::shared_ptr<autograd::Node> fn = t.grad_fn();
  return ReprInfo{t.device(), fn ? fn->name() : "", t.requires_grad()};
}

}  // namespace

std::string tensor_repr(const Tensor& values, const ReprInfo& info) {
  std::vector<std::string> suffixes;
  // Every non-CPU tensor names its device, even on the current GPU (Note [Print tensor device]).
  if (!info.device.is_cpu()) suffixes.push_back("device='" + info.device.str() + "'");

  std::string text = "tensor(";
  ScalarType dtype = values.scalar_type();
  if (values.numel() == 0) {
    // An empty tensor has no elements to hint at its dtype, so any non-float32 dtype is shown.
    text += "[]";
    if (values.dim() != 1) {
      std::string size = "size=(";
      for (int64_t d = 0; d < values.dim(); ++d)
        size += (d ? ", " : "") + std::to_string(values.size(d));
      suffixes.push_back(size + ")");
    }
    if (dtype != kFloat32) suffixes.push_back(std::string("dtype=") + python_dtype_name(dtype));
  } else {
    if (dtype != kFloat32 && dtype != kInt64 && dtype != kBool)
      suffixes.push_back(std::string("dtype=") + python_dtype_name(dtype));
    Tensor host = values.cpu();
    HostView view{static_cast<const char*>(host.data_ptr()), dtype, host.sizes(), host.strides(),
                  host.numel() > kThreshold};
    std::vector<const char*> printed;
    view.collect(view.data, 0, printed);
    append_body(view, Formatter(dtype, printed), view.data, 0, kPrefixLen, text);
  }

  if (!info.grad_fn.empty()) suffixes.push_back("grad_fn=<" + info.grad_fn + ">");
  else if (info.requires_grad) suffixes.push_back("requires_grad=True");
  return add_suffixes(std::move(text), suffixes);
}

}  // namespace detail

std::string Tensor::str() const {
  // LibTorch's wording: Python has no undefined tensors to copy.
  if (!defined()) return "[ Tensor (undefined) ]";
  return detail::tensor_repr(*this, detail::repr_info(*this));
}

std::ostream& operator<<(std::ostream& os, const Tensor& t) { return os << t.str(); }

void Scalar::write_to(std::ostream& os) const {
  if (isFloatingPoint()) os << toDouble();
  else if (isBoolean()) os << (toBool() ? "true" : "false");
  else os << toLong();
}

}  // namespace ember
