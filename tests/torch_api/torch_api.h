// The LibTorch API test (issue 20): one body of LibTorch-style code, built twice from the same
// sources, once against LibTorch (-DTORCH_API_AGAINST_LIBTORCH) and once against ember's
// <ember/torch.h>. Each check prints one line, `name: value`, in a form neither library's own
// printing decides: the two outputs (and the committed expected.txt, LibTorch's) must agree.
//
// The sources name only LibTorch's namespaces (torch::, at::, c10::). They must compile as C++17
// with g++ against LibTorch 1.13 and as C++20 against ember, and they check only what LibTorch
// 1.13 and PyTorch 2.x agree on (values drawn from a random generator are checked through
// derived facts: the two libraries' streams differ).
#pragma once

#ifdef TORCH_API_AGAINST_LIBTORCH
#include <torch/torch.h>
#else
#include <ember/torch.h>
#endif

#include <cstdint>
#include <exception>
#include <sstream>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

namespace torch_api {

// What `os << value` writes (a module, its options), as one string.
template <class Printable>
std::string printed(const Printable& value) {
  std::ostringstream os;
  os << value;
  return os.str();
}

// The value printers. A tensor prints as `Float [2, 3] [1, 2, 3, 4, 5, 6]`: its dtype, its shape
// and its values in row-major order, integers exactly and floating values with %.6g (`nan`,
// `inf`, `-inf`, and `0` for either zero). An undefined tensor prints `undefined`.
std::string show(const at::Tensor& t);
std::string show(const std::vector<at::Tensor>& tensors);          // `n=2 | ... | ...`
std::string show(const std::tuple<at::Tensor, at::Tensor>& pair);  // `... | ...`
std::string show(c10::IntArrayRef values);                         // `[2, 3]`
std::string show(c10::ScalarType type);                            // c10::toString: `Float`
std::string show(const std::string& text);
std::string show(const char* text);
std::string show_number(double value);
inline std::string show(bool value) { return value ? "1" : "0"; }
template <class T, std::enable_if_t<std::is_arithmetic_v<T>, int> = 0>
std::string show(T value) {
  if constexpr (std::is_floating_point_v<T>) {
    return show_number(static_cast<double>(value));
  } else {
    return std::to_string(static_cast<int64_t>(value));
  }
}

std::string first_line(const std::string& text);

// Starts an area of the output: a line `# name`.
void section(const char* name);
// Prints `name: value`.
void print(const char* name, const std::string& value);

// Prints `name: value` with the value `make_value` returns, or `name: error: <first line>` when
// it throws, so that one failing check does not hide the others.
template <class MakeValue>
void check(const char* name, MakeValue&& make_value) {
  std::string value;
  try {
    value = make_value();
  } catch (const std::exception& e) {
    value = "error: " + first_line(e.what());
  }
  print(name, value);
}

// `throws: <phrase>` when `statement` throws an exception whose what() contains `phrase`; else
// `no error`, or `other: <first line of the message>`. Messages are checked by their key phrase
// only: the rest of the text (a backtrace, ember's op name) may differ.
std::string thrown(const char* phrase, const std::exception& error);
template <class Statement>
std::string throws(const char* phrase, Statement&& statement) {
  try {
    statement();
  } catch (const std::exception& e) {
    return thrown(phrase, e);
  }
  return "no error";
}

}  // namespace torch_api

// One check, named by its own expression: SHOW(x.sum()) prints `x.sum(): Float [] [6]`.
#define SHOW(...) ::torch_api::check(#__VA_ARGS__, [&] { return ::torch_api::show(__VA_ARGS__); })
// One check of a statement that must throw with `phrase` in its message.
#define SHOW_THROWS(phrase, ...) \
  ::torch_api::print(#__VA_ARGS__, ::torch_api::throws(phrase, [&] { __VA_ARGS__; }))

// The areas of issue 20, one source file each, run by main() in this order.
void types_options_macros();
void handle_semantics();
void reductions();
void selection();
void elementwise();
void properties();
void random_fills();
void autograd_methods();
void bitwise();
void factories();
void indexing();
void strides();
void messages();
void autograd_functions();
void nn_modules();
void nn_functional();
void data_pipeline();
void optimizers();
void training();
void nn_any();
void nn_rnn();
void nn_activations();
void io_dlpack();
void nn_norms();
void nn_losses();
void nn_attention();
void nn_pooling();
void nn_layers();
