// optim::Optimizer: groups and their checks, zero_grad, state keys, and the base classes' errors
// for options and states that did not derive from the Cloneable templates.
#include "ember/optim/optimizer.h"

#include <array>
#include <charconv>
#include <cstdint>

#include "core/check.h"
#include "core/tensor_impl.h"
#include "ember/autograd.h"

namespace ember::optim {

std::unique_ptr<OptimizerParamState> OptimizerParamState::clone() const {
  EMBER_CHECK(false,
              "clone() has not been implemented for torch::optim::OptimizerParamState. Subclass "
              "torch::optim::OptimizerCloneableParamState<YourOptimizerParamState> instead of "
              "torch::optim::OptimizerParamState to inherit the ability to clone.");
  return nullptr;
}

std::unique_ptr<OptimizerOptions> OptimizerOptions::clone() const {
  EMBER_CHECK(false,
              "clone() has not been implemented for torch::optim::OptimizerOptions. Subclass "
              "torch::optim::OptimizerCloneableOptions<YourOptimizerOptions> instead of "
              "torch::optim::OptimizerOptions to inherit the ability to clone.");
  return nullptr;
}

double OptimizerOptions::get_lr() const {
  EMBER_CHECK(false,
              "double get_lr() has not been overidden and implemented in subclass of "
              "torch::optim::OptimizerOptions, you must override it in your subclass.");
  return 0;
}

void OptimizerOptions::set_lr(double /*lr*/) {
  EMBER_CHECK(false,
              "double set_lr() has not been overidden and implemented in subclass of "
              "torch::optim::OptimizerOptions, you must override it in your subclass.");
}

OptimizerOptions& OptimizerParamGroup::options() {
  EMBER_CHECK(has_options(), "param group has no options");
  return *options_;
}

const OptimizerOptions& OptimizerParamGroup::options() const {
  EMBER_CHECK(has_options(), "param group has no options");
  return *options_;
}

std::string state_key(const Tensor& param) {
  // "0x" and lowercase hex digits: what `std::ostream << pointer` writes, without a stream.
  const auto address = reinterpret_cast<std::uintptr_t>(detail::impl_of(param));
  std::array<char, 2 + 2 * sizeof(std::uintptr_t)> text{'0', 'x'};
  const auto end = std::to_chars(text.data() + 2, text.data() + text.size(), address, 16).ptr;
  return std::string(text.data(), end);
}

Optimizer::Optimizer(std::vector<OptimizerParamGroup> param_groups,
                     std::unique_ptr<OptimizerOptions> defaults)
    : defaults_(std::move(defaults)) {
  for (const OptimizerParamGroup& group : param_groups) add_param_group(group);
  EMBER_CHECK_T(ValueError, size() > 0,
                "optimizer got an empty parameter list; pass module->parameters() after the "
                "module is built");
}

void Optimizer::add_param_group(const OptimizerParamGroup& param_group) {
  for (const Tensor& param : param_group.params()) {
    EMBER_CHECK(param.defined() && param.is_leaf(), "can't optimize a non-leaf Tensor");
    for (const OptimizerParamGroup& group : param_groups_)
      for (const Tensor& other : group.params())
        EMBER_CHECK_T(ValueError, !other.is_same(param),
                      "some parameters appear in more than one parameter group");
  }
  EMBER_INTERNAL_ASSERT(defaults_ != nullptr);
  param_groups_.emplace_back(param_group.params(), param_group.has_options()
                                                       ? param_group.options().clone()
                                                       : defaults_->clone());
}

void Optimizer::zero_grad(bool set_to_none) {
  NoGradGuard no_grad;
  for (OptimizerParamGroup& group : param_groups_) {
    for (Tensor& p : group.params()) {
      if (!p.grad().defined()) continue;
      if (set_to_none) p.mutable_grad() = Tensor();
      else p.mutable_grad().zero_();
    }
  }
}

const std::vector<Tensor>& Optimizer::parameters() const noexcept {
  return param_groups_.at(0).params();
}

std::vector<Tensor>& Optimizer::parameters() noexcept { return param_groups_.at(0).params(); }

size_t Optimizer::size() const noexcept {
  size_t count = 0;
  for (const OptimizerParamGroup& group : param_groups_) count += group.params().size();
  return count;
}

}  // namespace ember::optim
