// optim::Optimizer as LibTorch's (torch/optim/optimizer.h): parameter groups each with its own
// options, per-parameter state objects keyed by the parameter, step(closure) and zero_grad.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "ember/macros.h"
#include "ember/tensor.h"

namespace ember::serialize {
class OutputArchive;
class InputArchive;
}  // namespace ember::serialize

namespace ember::optim {

// What an optimizer keeps per parameter (a momentum buffer, Adam's moments and step count).
class EMBER_API OptimizerParamState {
 public:
  virtual std::unique_ptr<OptimizerParamState> clone() const;
  virtual ~OptimizerParamState() = default;
  // Its fields by PyTorch's names ("momentum_buffer", "exp_avg", "step", ...).
  virtual void serialize(serialize::OutputArchive& archive) const;
  virtual void serialize(serialize::InputArchive& archive);
};

template <typename Derived>
class OptimizerCloneableParamState : public OptimizerParamState {
  std::unique_ptr<OptimizerParamState> clone() const override {
    return std::make_unique<Derived>(static_cast<const Derived&>(*this));
  }
};

// An optimizer's settings (SGDOptions, AdamOptions, ...): its defaults, and one copy per group.
class EMBER_API OptimizerOptions {
 public:
  virtual std::unique_ptr<OptimizerOptions> clone() const;
  virtual ~OptimizerOptions() = default;
  virtual double get_lr() const;
  virtual void set_lr(double lr);
  // Its settings by PyTorch's names ("lr", "momentum", "betas", ...); reading takes those the
  // archive has and keeps the others.
  virtual void serialize(serialize::OutputArchive& archive) const;
  virtual void serialize(serialize::InputArchive& archive);
};

template <typename Derived>
class OptimizerCloneableOptions : public OptimizerOptions {
  std::unique_ptr<OptimizerOptions> clone() const override {
    return std::make_unique<Derived>(static_cast<const Derived&>(*this));
  }
};

// Parameters that share options. A group made without options gets a copy of the optimizer's
// defaults when it is added; copying a group copies its options.
class EMBER_API OptimizerParamGroup {
 public:
  OptimizerParamGroup(const OptimizerParamGroup& param_group)
      : params_(param_group.params()),
        options_(param_group.has_options() ? param_group.options().clone() : nullptr) {}
  OptimizerParamGroup(std::vector<Tensor> params)  // NOLINT(google-explicit-constructor)
      : params_(std::move(params)) {}
  OptimizerParamGroup(std::vector<Tensor> params, std::unique_ptr<OptimizerOptions> options)
      : params_(std::move(params)), options_(std::move(options)) {}

  bool has_options() const { return options_ != nullptr; }
  OptimizerOptions& options();
  const OptimizerOptions& options() const;
  void set_options(std::unique_ptr<OptimizerOptions> options) { options_ = std::move(options); }
  std::vector<Tensor>& params() { return params_; }
  const std::vector<Tensor>& params() const { return params_; }

 protected:
  std::vector<Tensor> params_;
  std::unique_ptr<OptimizerOptions> options_;
};

// Note [Optimizer state keys]: state() maps a parameter to its state through the address of the
// parameter's TensorImpl printed as text, LibTorch's key (c10::guts::to_string of
// unsafeGetTensorImpl()), so that code indexing state() by it works unchanged. The key follows the
// parameter through module.to(), which changes a parameter's data in place, not its impl.
EMBER_API std::string state_key(const Tensor& param);

class EMBER_API Optimizer {
 public:
  using LossClosure = std::function<Tensor()>;

  // Copy one through state_dict, not a copy constructor (LibTorch's reason).
  Optimizer(const Optimizer&) = delete;
  Optimizer(Optimizer&&) = default;
  explicit Optimizer(std::vector<OptimizerParamGroup> param_groups,
                     std::unique_ptr<OptimizerOptions> defaults);
  explicit Optimizer(std::vector<Tensor> parameters, std::unique_ptr<OptimizerOptions> defaults)
      : Optimizer(std::vector<OptimizerParamGroup>{OptimizerParamGroup(std::move(parameters))},
                  std::move(defaults)) {}
  virtual ~Optimizer() = default;

  // Checks the group's parameters (leaves, in no other group) and adds it, with its own options or
  // a copy of defaults().
  void add_param_group(const OptimizerParamGroup& param_group);

  // One update of every parameter that has a gradient, inside a NoGradGuard. `closure`, when
  // given, recomputes the loss with gradients enabled (LBFGS needs it); step returns that loss.
  virtual Tensor step(LossClosure closure = nullptr) = 0;

  // Drops the gradients (set_to_none, PyTorch 2's default) or zeroes them in place (1.13's only
  // behaviour).
  void zero_grad(bool set_to_none = true);

  // The parameters of the first group.
  const std::vector<Tensor>& parameters() const noexcept;
  std::vector<Tensor>& parameters() noexcept;
  // How many parameters all groups hold.
  size_t size() const noexcept;

  OptimizerOptions& defaults() noexcept { return *defaults_; }
  const OptimizerOptions& defaults() const noexcept { return *defaults_; }
  std::vector<OptimizerParamGroup>& param_groups() noexcept { return param_groups_; }
  const std::vector<OptimizerParamGroup>& param_groups() const noexcept { return param_groups_; }
  using StateMap = std::unordered_map<std::string, std::unique_ptr<OptimizerParamState>>;
  StateMap& state() noexcept { return state_; }
  const StateMap& state() const noexcept { return state_; }

  // Note [Optimizers in PyTorch's layout]: torch::save(optimizer, ...) writes Python's
  // optimizer.state_dict(): "state" maps each parameter's index (counted across the groups) to
  // its state, and "param_groups" lists each group's settings with its "params" indices. So a
  // Python checkpoint's optimizer loads here, and this one loads in Python. Loading checks the
  // groups' sizes against this optimizer's.
  virtual void save(serialize::OutputArchive& archive) const;
  virtual void load(serialize::InputArchive& archive);

 protected:
  // A new, empty state of this optimizer's type, for load(); the base refuses to load state.
  virtual std::unique_ptr<OptimizerParamState> make_param_state() const;

  // The state of `param` as the derived optimizer's type, made (default-constructed) on first use.
  template <class State>
  State& state_of(const Tensor& param) {
    std::unique_ptr<OptimizerParamState>& slot = state_[state_key(param)];
    if (!slot) slot = std::make_unique<State>();
    return static_cast<State&>(*slot);
  }

  std::vector<OptimizerParamGroup> param_groups_;
  StateMap state_;
  std::unique_ptr<OptimizerOptions> defaults_;
};

EMBER_API serialize::OutputArchive& operator<<(serialize::OutputArchive& archive,
                                               const Optimizer& optimizer);
EMBER_API serialize::InputArchive& operator>>(serialize::InputArchive& archive,
                                              Optimizer& optimizer);

}  // namespace ember::optim
