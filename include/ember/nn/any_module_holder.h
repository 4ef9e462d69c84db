// What an AnyModule holds: the module behind a type-erased interface that calls its forward with
// AnyValue arguments, checking their count and types as LibTorch's AnyModuleHolder does.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <vector>

#include "ember/device.h"
#include "ember/nn/any_value.h"
#include "ember/nn/module.h"

namespace ember::detail {

// The count and type checks' errors (TypeError), with LibTorch's texts. `required` is the
// number of arguments without a default, for a forward declared with FORWARD_HAS_DEFAULT_ARGS.
EMBER_API void check_argument_count(const std::type_info& module, size_t received, size_t expected,
                                    std::optional<size_t> required);
[[noreturn]] EMBER_API void fail_argument_type(size_t index, const std::type_info& expected,
                                               const std::type_info& received);

class AnyModulePlaceholder {
 public:
  AnyModulePlaceholder(const std::type_info& type, bool maps_tensor_to_tensor) noexcept
      : type_info(type), maps_tensor_to_tensor(maps_tensor_to_tensor) {}
  virtual ~AnyModulePlaceholder() = default;

  // The module's forward on `arguments`, after the count and type checks.
  virtual nn::AnyValue forward(std::vector<nn::AnyValue>&& arguments) const = 0;
  // forward(input) without boxing when maps_tensor_to_tensor (Note [Sequential's tensor path]),
  // else through forward(arguments) with the returned value taken as a Tensor.
  virtual Tensor forward_tensor(const Tensor& input) const = 0;
  virtual std::shared_ptr<nn::Module> ptr() const = 0;
  // A holder of a deep copy of the module (its clone()).
  virtual std::shared_ptr<const AnyModulePlaceholder> clone_module(
      const std::optional<Device>& device) const = 0;

  // The module's own type, for the errors and AnyModule::get<T>'s check.
  const std::type_info& type_info;
  // Whether its forward takes one Tensor (by value or const reference) and returns a Tensor.
  const bool maps_tensor_to_tensor;
};

// holder.forward on {input}, the result taken as a Tensor (TypeError when it is another type).
// Out of line: inlined into a holder whose forward returns another type, g++ -O3 warns about the
// cast it cannot rule out (-Warray-bounds).
EMBER_API Tensor forward_boxed(const AnyModulePlaceholder& holder, const Tensor& input);

template <class ModuleType, class ReturnType, class... ArgumentTypes>
class AnyModuleHolder final : public AnyModulePlaceholder {
 public:
  static constexpr bool kMapsTensorToTensor =
      std::is_same_v<ReturnType, Tensor> && sizeof...(ArgumentTypes) == 1 &&
      (std::is_same_v<std::decay_t<ArgumentTypes>, Tensor> && ...) &&
      (std::is_convertible_v<const Tensor&, ArgumentTypes> && ...);

  explicit AnyModuleHolder(std::shared_ptr<ModuleType> module)
      : AnyModulePlaceholder(typeid(ModuleType), kMapsTensorToTensor), module_(std::move(module)) {}

  nn::AnyValue forward(std::vector<nn::AnyValue>&& arguments) const override {
    constexpr size_t expected = sizeof...(ArgumentTypes);
    // FORWARD_HAS_DEFAULT_ARGS declares `_forward_default_args()` ({index, value} of each trailing
    // argument with a default) and befriends this class: the check must be made here, where the
    // member is accessible.
    if constexpr (requires(const ModuleType& m) { m._forward_default_args(); }) {
      auto defaults = module_->_forward_default_args();
      check_argument_count(type_info, arguments.size(), expected, defaults.front().first);
      for (auto& [index, value] : defaults)
        if (index >= arguments.size()) arguments.push_back(std::move(value));
    } else {
      check_argument_count(type_info, arguments.size(), expected, std::nullopt);
    }
    return call(arguments, std::index_sequence_for<ArgumentTypes...>());
  }

  Tensor forward_tensor(const Tensor& input) const override {
    if constexpr (kMapsTensorToTensor) {
      return module_->forward(input);
    } else {
      return forward_boxed(*this, input);
    }
  }

  std::shared_ptr<nn::Module> ptr() const override { return module_; }

  std::shared_ptr<const AnyModulePlaceholder> clone_module(
      const std::optional<Device>& device) const override {
    return std::make_shared<AnyModuleHolder>(
        std::dynamic_pointer_cast<ModuleType>(module_->clone(device)));
  }

 private:
  // Checks every argument's type, first to last, then moves the values into the call.
  template <size_t... I>
  nn::AnyValue call(std::vector<nn::AnyValue>& arguments, std::index_sequence<I...>) const {
    (check_type<std::decay_t<ArgumentTypes>>(arguments[I], I), ...);
    return nn::AnyValue(module_->forward(
        std::move(*arguments[I].template try_get<std::decay_t<ArgumentTypes>>())...));
  }
  template <class T>
  static void check_type(const nn::AnyValue& argument, size_t index) {
    if (argument.try_get<T>() == nullptr)
      fail_argument_type(index, typeid(T), argument.type_info());
  }

  std::shared_ptr<ModuleType> module_;
};

}  // namespace ember::detail
