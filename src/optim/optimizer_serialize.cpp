// Optimizer::save and Optimizer::load in PyTorch's layout (Note [Optimizers in PyTorch's layout]).
#include "core/check.h"
#include "ember/optim/optimizer.h"
#include "ember/serialize.h"
#include "io/input_archive_access.h"

namespace ember::optim {

void OptimizerParamState::serialize(serialize::OutputArchive& /*archive*/) const {
  ember::detail::fail<NotImplementedError>(
      "[torch::save] this optimizer's parameter state has no serialize(OutputArchive&)");
}
void OptimizerParamState::serialize(serialize::InputArchive& /*archive*/) {
  ember::detail::fail<NotImplementedError>(
      "[torch::load] this optimizer's parameter state has no serialize(InputArchive&)");
}
void OptimizerOptions::serialize(serialize::OutputArchive& /*archive*/) const {
  ember::detail::fail<NotImplementedError>(
      "[torch::save] these optimizer options have no serialize(OutputArchive&) (LBFGS and "
      "optimizers written outside ember cannot be saved yet)");
}
void OptimizerOptions::serialize(serialize::InputArchive& /*archive*/) {
  ember::detail::fail<NotImplementedError>(
      "[torch::load] these optimizer options have no serialize(InputArchive&)");
}
std::unique_ptr<OptimizerParamState> Optimizer::make_param_state() const {
  ember::detail::fail<NotImplementedError>(
      "[torch::load] this optimizer cannot load state (LBFGS and optimizers written outside "
      "ember cannot yet)");
}

void Optimizer::save(serialize::OutputArchive& archive) const {
  Dict<IValue, IValue> states;
  List<IValue> groups;
  int64_t index = 0;
  for (const OptimizerParamGroup& group : param_groups_) {
    serialize::OutputArchive settings;
    group.options().serialize(settings);
    Dict<IValue, IValue> entry = settings.entries().copy();
    List<IValue> ids;
    for (const Tensor& param : group.params()) {
      auto found = state_.find(state_key(param));
      if (found != state_.end() && found->second) {
        serialize::OutputArchive state;
        found->second->serialize(state);
        states.insert(index, state.entries());
      }
      ids.push_back(index++);
    }
    entry.insert("params", ids);
    groups.push_back(entry);
  }
  archive.write("state", states);
  archive.write("param_groups", groups);
}

void Optimizer::load(serialize::InputArchive& archive) {
  using serialize::detail::InputArchiveAccess;
  IValue states, groups;
  archive.read("state", states);
  archive.read("param_groups", groups);
  EMBER_CHECK_T(TypeError, states.isGenericDict() && groups.isList(),
                "[torch::load] an optimizer's archive holds a dict 'state' and a list "
                "'param_groups' (Python's optimizer.state_dict()); these are a ",
                states.tagKind(), " and a ", groups.tagKind());
  List<IValue> saved = groups.toList();
  std::vector<int64_t> ours, theirs;  // printed as IntArrayRefs: [4, 2]
  for (const OptimizerParamGroup& group : param_groups_)
    ours.push_back(static_cast<int64_t>(group.params().size()));
  for (const IValue& group : saved) {
    EMBER_CHECK_T(TypeError,
                  group.isGenericDict() && group.toGenericDict().contains("params") &&
                      group.toGenericDict().at("params").isList(),
                  "[torch::load] an optimizer's param group is a dict with a 'params' list");
    theirs.push_back(static_cast<int64_t>(group.toGenericDict().at("params").toList().size()));
  }
  EMBER_CHECK_T(ValueError, ours == theirs,
                "[torch::load] the saved optimizer has param groups of sizes ", theirs,
                ", this one ", ours,
                "; build it over the same parameters, in the same "
                "order, before loading");
  Dict<IValue, IValue> by_index = states.toGenericDict();
  for (size_t g = 0; g < param_groups_.size(); ++g) {
    Dict<IValue, IValue> group = saved.get(g).toGenericDict();
    serialize::InputArchive settings = InputArchiveAccess::over(group, "param_groups");
    param_groups_[g].options().serialize(settings);
    List<IValue> ids = group.at("params").toList();
    for (size_t i = 0; i < ids.size(); ++i) {
      const Tensor& param = param_groups_[g].params()[i];
      auto found = by_index.find(ids.get(i));
      if (found == by_index.end()) {
        state_.erase(state_key(param));
        continue;
      }
      EMBER_CHECK_T(TypeError, found->value().isGenericDict(),
                    "[torch::load] an optimizer's state entry is a dict, not a ",
                    found->value().tagKind());
      // As PyTorch's load_state_dict: state tensors go to the parameter's device, and floating
      // ones take its dtype (a step count stays as saved).
      Dict<IValue, IValue> values;
      for (const auto& field : found->value().toGenericDict()) {
        const IValue& v = field.value();
        bool cast = v.isTensor() && isFloatingType(v.toTensor().scalar_type()) &&
                    !(field.key().isString() && field.key().toStringRef() == "step");
        values.insert(field.key(),
                      !v.isTensor() ? v
                      : cast        ? IValue(v.toTensor().to(param.device(), param.scalar_type()))
                                    : IValue(v.toTensor().to(param.device())));
      }
      std::unique_ptr<OptimizerParamState> state = make_param_state();
      serialize::InputArchive fields = InputArchiveAccess::over(values, "state");
      state->serialize(fields);
      state_[state_key(param)] = std::move(state);
    }
  }
}

serialize::OutputArchive& operator<<(serialize::OutputArchive& archive,
                                     const Optimizer& optimizer) {
  optimizer.save(archive);
  return archive;
}

serialize::InputArchive& operator>>(serialize::InputArchive& archive, Optimizer& optimizer) {
  optimizer.load(archive);
  return archive;
}

}  // namespace ember::optim
