// Custom autograd functions, as LibTorch's torch::autograd::Function<T>: a struct with static
//   forward(AutogradContext* ctx, args...)  -> Tensor or variable_list
//   backward(AutogradContext* ctx, variable_list grad_outputs) -> variable_list
// called as T::apply(args...). forward runs without grad mode; backward gets one gradient per
// output and returns one per forward argument (undefined for the arguments that are not
// tensors). The node in the graph is named "torch::autograd::CppNode<T>", as in LibTorch.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <unordered_map>
#include <utility>
#include <vector>

#include "ember/autograd.h"
#include "ember/ivalue.h"
#include "ember/macros.h"
#include "ember/tensor.h"

namespace ember::autograd {

using Variable = Tensor;
using variable_list = std::vector<Variable>;
using IndexRange = std::pair<size_t, size_t>;  // [first, second) of the tensor inputs

class CustomFunctionNode;
namespace custom_function_detail {
class CustomFunctionCall;
}

// What forward tells backward, and what backward may ask (LibTorch's AutogradContext).
class EMBER_API AutogradContext {
 public:
  AutogradContext() = default;
  AutogradContext(const AutogradContext&) = delete;
  AutogradContext& operator=(const AutogradContext&) = delete;

  // Non-tensor data for backward: ctx->saved_data["alpha"] = 2.5; ...toDouble().
  std::unordered_map<std::string, IValue> saved_data;

  // Tensors backward will read (inputs or outputs): kept as saved tensors are, with the
  // version check that refuses a tensor modified in place since. Call once, in forward.
  void save_for_backward(variable_list to_save);
  // Inputs that forward modified in place: they become outputs of this function.
  void mark_dirty(const variable_list& inputs);
  // Outputs without a gradient (indices, masks): they do not require grad.
  void mark_non_differentiable(const variable_list& outputs);
  // Whether a missing output gradient reaches backward as zeros (the default) or undefined.
  void set_materialize_grads(bool value);

  // In backward: the tensors save_for_backward kept.
  variable_list get_saved_variables() const;
  // Whether the gradient of tensor input `output_edge_index` (counting tensor inputs only) is
  // needed.
  bool needs_input_grad(size_t output_edge_index) const;
  bool needs_input_grad(std::initializer_list<IndexRange> idxs) const;

 private:
  friend class CustomFunctionNode;
  friend class custom_function_detail::CustomFunctionCall;
  variable_list to_save_;
  variable_list saved_;  // unpacked for the duration of backward
  std::vector<const void*> dirty_;
  std::vector<const void*> non_differentiable_;
  uint64_t needs_mask_ = 0;
  bool materialize_grads_ = true;
  bool in_backward_ = false;
};

namespace custom_function_detail {

using CustomBackward = variable_list (*)(AutogradContext*, variable_list);

// One call of Function<T>::apply: collects the arguments, owns the node and its context, and
// connects forward's outputs to the graph.
class EMBER_API CustomFunctionCall {
 public:
  CustomFunctionCall(const std::type_info& function, CustomBackward backward);
  CustomFunctionCall(const CustomFunctionCall&) = delete;
  CustomFunctionCall& operator=(const CustomFunctionCall&) = delete;
  ~CustomFunctionCall();

  void add_tensor_argument(const Tensor& t);
  void add_other_argument();
  AutogradContext* context();
  // forward's outputs, made outputs of the node when any tensor input requires grad.
  variable_list wrap(variable_list outputs);

 private:
  std::shared_ptr<CustomFunctionNode> node_;
  variable_list inputs_;
};

template <class A>
void add_argument(CustomFunctionCall& call, const A& argument) {
  if constexpr (std::is_same_v<std::decay_t<A>, Tensor>) {
    call.add_tensor_argument(argument);
  } else {
    call.add_other_argument();
  }
}

}  // namespace custom_function_detail

template <class T>
struct Function {
  template <typename X = T, typename... Args>
  static auto apply(Args&&... args)
      -> std::enable_if_t<std::is_same_v<X, T>,
                          decltype(X::forward(nullptr, std::forward<Args>(args)...))> {
    using Output = decltype(X::forward(nullptr, std::forward<Args>(args)...));
    static_assert(std::is_same_v<Output, Tensor> || std::is_same_v<Output, variable_list>,
                  "forward returns a Tensor or a variable_list");
    custom_function_detail::CustomFunctionCall call(typeid(X), &X::backward);
    (custom_function_detail::add_argument(call, args), ...);
    Output outputs = [&] {
      AutoGradMode no_grad(false);
      return X::forward(call.context(), std::forward<Args>(args)...);
    }();
    if constexpr (std::is_same_v<Output, Tensor>) {
      return call.wrap({std::move(outputs)})[0];
    } else {
      return call.wrap(std::move(outputs));
    }
  }
};

}  // namespace ember::autograd
