// The value printers of torch_api.h: canonical text that neither library's printing decides.
#include <cmath>
#include <cstdio>

#include "torch_api.h"

namespace torch_api {

std::string show_number(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  if (value == 0) return "0";  // the sign of a zero is not compared
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", value);
  return text;
}

std::string show(const at::Tensor& t) {
  if (!t.defined()) return "undefined";
  std::string out = show(t.scalar_type()) + " " + show(t.sizes()) + " [";
  const bool exact = !t.is_floating_point();
  const at::Tensor values = t.detach().cpu().to(exact ? at::kLong : at::kDouble).contiguous();
  for (int64_t i = 0; i < values.numel(); ++i) {
    if (i > 0) out += ", ";
    out += exact ? show(values.data_ptr<int64_t>()[i]) : show_number(values.data_ptr<double>()[i]);
  }
  return out + "]";
}

std::string show(const std::vector<at::Tensor>& tensors) {
  std::string out = "n=" + std::to_string(tensors.size());
  for (const at::Tensor& t : tensors) out += " | " + show(t);
  return out;
}

std::string show(const std::tuple<at::Tensor, at::Tensor>& pair) {
  return show(std::get<0>(pair)) + " | " + show(std::get<1>(pair));
}

std::string show(c10::IntArrayRef values) {
  std::string out = "[";
  for (size_t i = 0; i < values.size(); ++i) out += (i > 0 ? ", " : "") + show(values[i]);
  return out + "]";
}

std::string show(c10::ScalarType type) { return c10::toString(type); }
std::string show(const std::string& text) { return text; }
std::string show(const char* text) { return text; }

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

std::string thrown(const char* phrase, const std::exception& error) {
  const std::string message = error.what();
  if (message.find(phrase) != std::string::npos) return std::string("throws: ") + phrase;
  return "other: " + first_line(message);
}

void section(const char* name) { std::printf("# %s\n", name); }

void print(const char* name, const std::string& value) {
  std::printf("%s: %s\n", name, value.c_str());
}

}  // namespace torch_api
