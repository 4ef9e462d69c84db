// nn::AnyValue's and nn::AnyModule's checks, with LibTorch's messages.
#include "ember/nn/any_module.h"

#include <string>

#include "core/check.h"
#include "core/demangle.h"

namespace ember {

namespace {

std::string demangled(const std::type_info& type) { return ember::detail::demangle(type.name()); }

}  // namespace

namespace detail {

void check_argument_count(const std::type_info& module, size_t received, size_t expected,
                          std::optional<size_t> required) {
  if (required) {
    EMBER_CHECK_T(TypeError, received >= *required && received <= expected, "[AnyModule] ",
                  demangled(module), "'s forward() method expects at least ", *required,
                  " argument(s) and at most ", expected, " argument(s), but received ", received,
                  ".");
    return;
  }
  EMBER_CHECK_T(
      TypeError, received == expected, "[AnyModule] ", demangled(module),
      "'s forward() method expects ", expected, " argument(s), but received ", received, ".",
      received < expected ? " If " + demangled(module) +
                                "'s forward() method has default arguments, please make sure the "
                                "forward() method is declared with a corresponding "
                                "`FORWARD_HAS_DEFAULT_ARGS` macro."
                          : std::string());
}

void fail_argument_type(size_t index, const std::type_info& expected,
                        const std::type_info& received) {
  fail<TypeError>("[AnyModule] Expected argument #", index, " to be of type ", demangled(expected),
                  ", but received value of type ", demangled(received));
}

Tensor forward_boxed(const AnyModulePlaceholder& holder, const Tensor& input) {
  std::vector<nn::AnyValue> arguments;
  arguments.emplace_back(input);
  return holder.forward(std::move(arguments)).get<Tensor>();
}

}  // namespace detail

namespace nn {

void AnyValue::fail_cast(const std::type_info& requested) const {
  ember::detail::fail<TypeError>("[AnyValue] Attempted to cast AnyValue to ", demangled(requested),
                                 ", but its actual type is ", demangled(type_info()));
}

AnyModule AnyModule::clone(std::optional<Device> device) const {
  AnyModule copy;
  if (content_ != nullptr) copy.content_ = content_->clone_module(device);
  return copy;
}

const ember::detail::AnyModulePlaceholder& AnyModule::holder(const char* method) const {
  EMBER_CHECK_T(ValueError, content_ != nullptr, "[AnyModule] Cannot call ", method,
                "() on an empty AnyModule");
  return *content_;
}

void AnyModule::fail_module_type(const std::type_info& requested) const {
  ember::detail::fail<TypeError>("[AnyModule] Attempted to cast module of type ",
                                 demangled(type_info()), " to type ", demangled(requested));
}

}  // namespace nn
}  // namespace ember
