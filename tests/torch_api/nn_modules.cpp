// Area 5 (issue 22): modules as LibTorch's C++ frontend defines them: a custom module with
// TORCH_MODULE, registration, traversal (modules, children, apply), names and printing, as<T>(),
// train/eval, to(), zero_grad, and Sequential.
#include <sstream>

#include "torch_api.h"

namespace {

// The usual LibTorch model: empty holders as members, filled by register_module.
struct NetImpl : torch::nn::Module {
  NetImpl() {
    fc1 = register_module("fc1", torch::nn::Linear(3, 4));
    fc2 = register_module("fc2", torch::nn::Linear(4, 1));
    scale = register_parameter("scale", torch::ones({1}));
    register_buffer("steps", torch::zeros({1}, torch::kLong));
  }
  torch::Tensor forward(torch::Tensor x) { return fc2(torch::relu(fc1(x))) * scale; }

  torch::nn::Linear fc1{nullptr}, fc2{nullptr};
  torch::Tensor scale;
};
TORCH_MODULE(Net);

// A module without parameters whose forward takes its tensor by value.
struct TwiceImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) { return x * 2; }
};
TORCH_MODULE(Twice);

// A Cloneable module: reset() builds what clone() copies.
struct CloneNetImpl : torch::nn::Cloneable<CloneNetImpl> {
  CloneNetImpl() { reset(); }
  void reset() override {
    fc = register_module("fc", torch::nn::Linear(2, 2));
    offset = register_parameter("offset", torch::zeros({2}));
    register_buffer("count", torch::zeros({1}));
  }
  torch::Tensor forward(torch::Tensor x) { return fc(x) + offset; }

  torch::nn::Linear fc{nullptr};
  torch::Tensor offset;
};
TORCH_MODULE(CloneNet);

// `os << module` on one line: its line breaks written as `\n`.
template <class Printable>
std::string printed(const Printable& module) {
  std::ostringstream os;
  os << module;
  std::string out;
  for (char c : os.str()) out += c == '\n' ? std::string("\\n") : std::string(1, c);
  return out;
}

// The keys of an OrderedDict, through its items' key(): `[fc1.weight][fc1.bias]`.
template <class Dict>
std::string keys_of(const Dict& dict) {
  std::string out;
  for (const auto& item : dict) out += "[" + item.key() + "]";
  return out;
}

void fill_parameters(torch::nn::Module& module, double value) {
  torch::NoGradGuard no_grad;
  for (auto& parameter : module.parameters()) parameter.fill_(value);
}

void custom_module() {
  Net net;
  fill_parameters(*net, 0.5);
  SHOW(net->name());
  SHOW(printed(*net));
  SHOW(printed(net));
  SHOW(keys_of(net->named_parameters()));
  SHOW(keys_of(net->named_parameters(/*recurse=*/false)));
  SHOW(net->parameters().size());
  SHOW(net->parameters(false).size());
  SHOW(keys_of(net->named_buffers()));
  SHOW(net->buffers().size());
  SHOW(keys_of(net->named_children()));
  SHOW(net->children().size());
  SHOW(keys_of(net->named_modules()));
  SHOW(keys_of(net->named_modules("net")));
  SHOW(keys_of(net->named_modules("", /*include_self=*/false)));
  SHOW(net->modules().size());
  SHOW(net->modules(/*include_self=*/false).size());
  SHOW(net->named_parameters()["fc2.bias"]);
  SHOW(net(torch::ones({2, 3})));

  Net empty{nullptr};
  SHOW(empty.is_empty());
  SHOW(net.is_empty());
  SHOW(net.get() == net.ptr().get());
  SHOW((*net).fc1->weight.sizes());
  Twice twice;
  SHOW(twice(torch::ones({2})));
  SHOW(twice->name());
  SHOW(printed(*twice));
}

void casts_and_apply() {
  Net net;
  SHOW(net->fc1->as<torch::nn::Linear>() != nullptr);
  SHOW(net->fc1->as<torch::nn::LinearImpl>() == net->fc1.get());
  SHOW(net->as<torch::nn::Linear>() == nullptr);
  SHOW(net->as<NetImpl>() == net.get());
  torch::nn::Module& base = *net;
  SHOW(base.as<Net>() == net.get());

  int visited = 0;
  net->apply([&](torch::nn::Module& module) { visited += module.is_training() ? 1 : 0; });
  SHOW(visited);
  std::string names;
  net->apply([&](const std::string& name, torch::nn::Module&) { names += "[" + name + "]"; },
             "root");
  SHOW(names);
  std::string pointers;
  net->apply([&](const std::shared_ptr<torch::nn::Module>& module) {
    pointers += module->as<torch::nn::Linear>() ? "L" : "M";
  });
  SHOW(pointers);

  net->eval();
  SHOW(net->is_training());
  SHOW(net->fc2->is_training());
  net->train();
  SHOW(net->fc1->is_training());
  net->train(false);
  SHOW(net->fc1->is_training());
}

void moves_and_grads() {
  Net net;
  net->to(torch::kDouble);
  SHOW(net->fc1->weight.scalar_type());
  net->to(torch::Device(torch::kCPU), torch::kFloat);
  SHOW(net->scale.scalar_type());
  net->to(torch::Device(torch::kCPU), /*non_blocking=*/false);
  SHOW(net->scale.device().is_cpu());

  net(torch::ones({2, 3})).sum().backward();
  SHOW(net->scale.grad().defined());
  net->zero_grad(/*set_to_none=*/false);
  SHOW(net->scale.grad());
  net->zero_grad(/*set_to_none=*/true);
  SHOW(net->scale.grad().defined());

  auto replaced = net->replace_module("fc2", torch::nn::Linear(4, 2));
  SHOW(replaced->weight.sizes());
  SHOW(net->named_parameters()["fc2.weight"].sizes());
}

void cloning() {
  CloneNet net;
  fill_parameters(*net, 1.0);
  auto copy = std::dynamic_pointer_cast<CloneNetImpl>(net->clone());
  SHOW(copy != nullptr);
  SHOW(copy->name());
  SHOW(printed(*copy));
  SHOW(keys_of(copy->named_parameters()));
  SHOW(keys_of(copy->named_buffers()));
  SHOW(copy->forward(torch::ones({1, 2})));
  SHOW(copy->fc.get() != net->fc.get());
  SHOW(copy->fc->weight.data_ptr() != net->fc->weight.data_ptr());
  SHOW(copy->named_parameters()["fc.weight"].data_ptr() == copy->fc->weight.data_ptr());
  SHOW(copy->offset.data_ptr() == copy->named_parameters()["offset"].data_ptr());
  SHOW(copy->fc->weight.requires_grad());
  fill_parameters(*copy, 2.0);
  SHOW(copy->forward(torch::ones({1, 2})));
  SHOW(net->forward(torch::ones({1, 2})));
  net->eval();
  SHOW(std::dynamic_pointer_cast<CloneNetImpl>(net->clone())->is_training());
  SHOW_THROWS("clone() has not been implemented", Net()->clone());

  // Built-in layers and containers are Cloneable too: fresh tensors, the original's values.
  torch::nn::BatchNorm1d bn(2);
  bn(torch::tensor({1.0f, 10.0f, 3.0f, 30.0f}).reshape({2, 2}));
  auto bn_copy = std::dynamic_pointer_cast<torch::nn::BatchNorm1dImpl>(bn->clone());
  SHOW(bn_copy->running_mean);
  SHOW(bn_copy->running_var);
  SHOW(bn_copy->num_batches_tracked);
  SHOW(bn_copy->running_mean.data_ptr() != bn->running_mean.data_ptr());
  SHOW(printed(*bn_copy));
  torch::nn::Conv2d conv(torch::nn::Conv2dOptions(1, 2, 3).bias(false));
  auto conv_copy = std::dynamic_pointer_cast<torch::nn::Conv2dImpl>(conv->clone());
  SHOW(conv_copy->weight.equal(conv->weight));
  SHOW(conv_copy->weight.data_ptr() != conv->weight.data_ptr());
  SHOW(keys_of(conv_copy->named_parameters()));
  torch::nn::ModuleList list(torch::nn::Linear(2, 2), torch::nn::ReLU(), torch::nn::Dropout(0.25));
  auto list_copy = std::dynamic_pointer_cast<torch::nn::ModuleListImpl>(list->clone());
  SHOW(printed(*list_copy));
  SHOW((*list_copy)[0].get() != list[0].get());
  SHOW((*list_copy)[0]->parameters()[0].equal(list[0]->parameters()[0]));
  torch::nn::ModuleDict dict(
      std::vector<std::pair<std::string, std::shared_ptr<torch::nn::Module>>>{
          {"embed", torch::nn::Embedding(torch::nn::EmbeddingOptions(3, 2).padding_idx(1)).ptr()}});
  auto dict_copy = std::dynamic_pointer_cast<torch::nn::ModuleDictImpl>(dict->clone());
  SHOW(printed(*dict_copy));
  SHOW((*dict_copy)["embed"]->parameters()[0].equal(dict["embed"]->parameters()[0]));
  torch::nn::CrossEntropyLoss loss(torch::nn::CrossEntropyLossOptions().weight(torch::ones({3})));
  SHOW(keys_of(loss->clone()->named_buffers()));

  // Without momentum the running statistics average every batch; the clone keeps counting.
  torch::nn::BatchNorm1d cumulative(torch::nn::BatchNorm1dOptions(2).momentum(c10::nullopt));
  cumulative(torch::tensor({1.0f, 10.0f, 3.0f, 30.0f}).reshape({2, 2}));
  auto cumulative_copy = std::dynamic_pointer_cast<torch::nn::BatchNorm1dImpl>(cumulative->clone());
  cumulative_copy->forward(torch::tensor({5.0f, 0.0f, 7.0f, 0.0f}).reshape({2, 2}));
  SHOW(cumulative->running_mean);
  SHOW(cumulative_copy->running_mean);
  SHOW(cumulative_copy->running_var);
  SHOW(printed(*cumulative_copy));
  SHOW_THROWS("Expected more than 1 value per channel", cumulative(torch::ones({1, 2})));
}

void sequential() {
  torch::nn::Sequential seq(torch::nn::Linear(3, 2), torch::nn::ReLU(), Twice());
  fill_parameters(*seq, 0.5);
  SHOW(seq->size());
  SHOW(printed(*seq));
  SHOW(keys_of(seq->named_parameters()));
  SHOW(seq->forward(torch::ones({1, 3})));
  SHOW(seq->ptr<torch::nn::LinearImpl>(0)->weight.sizes());
  SHOW(seq[0]->as<torch::nn::Linear>() != nullptr);
  SHOW(seq[2]->as<TwiceImpl>() != nullptr);
  SHOW(seq->ptr(1)->name() == seq[1]->name());
  SHOW_THROWS("Attempted to cast module", seq->ptr<torch::nn::LinearImpl>(1));

  torch::nn::Sequential named({{"fc", torch::nn::Linear(3, 2)}, {"twice", Twice()}});
  SHOW(keys_of(named->named_children()));
  named->push_back(torch::nn::ReLU());
  named->push_back("last", Twice());
  SHOW(keys_of(named->named_children()));
  named->extend(*seq);
  SHOW(named->size());
  SHOW(keys_of(named->named_children()));
  int count = 0;
  for (const auto& module : *named) count += module.ptr()->as<TwiceImpl>() ? 1 : 0;
  SHOW(count);

  auto nested = torch::nn::Sequential(Net(), Twice());
  SHOW(printed(nested));
  SHOW(nested->forward(torch::ones({1, 3})).sizes());
}

torch::Tensor scaled(torch::Tensor x, double factor) { return x * factor; }

void containers() {
  torch::nn::ModuleList list(torch::nn::Linear(3, 2), Twice());
  list->push_back(torch::nn::ReLU());
  SHOW(printed(list));
  SHOW(keys_of(list->named_parameters()));
  // (LibTorch 1.13's insert registers the moved modules under the wrong names: only the
  // positions are checked after it.)
  list->insert(0, Twice());
  SHOW(list->size());
  SHOW(list[1]->as<torch::nn::Linear>() != nullptr);
  SHOW(list->ptr<torch::nn::LinearImpl>(1)->weight.sizes());
  int twice_count = 0;
  for (const auto& module : *list) twice_count += module->as<TwiceImpl>() ? 1 : 0;
  SHOW(twice_count);
  torch::Tensor x = torch::ones({1, 3});
  SHOW(list[0]->as<TwiceImpl>()->forward(x));

  torch::nn::ModuleDict dict(
      std::vector<std::pair<std::string, std::shared_ptr<torch::nn::Module>>>{
          {"fc", torch::nn::Linear(3, 2).ptr()}, {"twice", Twice().ptr()}});
  dict->update(std::vector<std::pair<std::string, std::shared_ptr<torch::nn::Module>>>{
      {"act", torch::nn::ReLU().ptr()}});
  SHOW(dict->size());
  SHOW(printed(dict));
  SHOW(keys_of(dict->named_parameters()));
  SHOW(dict->contains("act"));
  SHOW(dict["fc"]->as<torch::nn::Linear>() != nullptr);
  SHOW(dict->pop("act")->name() == torch::nn::ReLU()->name());
  SHOW(dict->keys().size());

  torch::nn::ParameterList params(torch::ones({2}), torch::zeros({3}));
  params->append(torch::full({1}, 5.0));
  SHOW(params->size());
  SHOW(params[2]);
  SHOW(params->at(0).requires_grad());
  SHOW(keys_of(params->named_parameters()));
  SHOW(printed(params));

  torch::nn::ParameterDict named_params;
  named_params->insert("scale", torch::ones({2}));
  named_params->insert("shift", torch::zeros({2}));
  SHOW(named_params->size());
  SHOW(named_params["shift"]);
  SHOW(named_params->get("scale").requires_grad());
  SHOW(named_params->contains("scale"));
  SHOW(keys_of(named_params->named_parameters()));
  SHOW(printed(named_params));
  SHOW(named_params->pop("scale").sizes());
  SHOW(named_params->keys().size());

  torch::nn::Functional relu(torch::relu);
  SHOW(relu(torch::tensor({-1.0, 2.0})));
  torch::nn::Functional tripled(scaled, 3.0);
  SHOW(tripled(torch::tensor({-1.0, 2.0})));
  torch::nn::Functional lambda([](torch::Tensor t) { return t + 1; });
  SHOW(lambda(torch::zeros({2})));
  SHOW(printed(lambda));
  auto seq = torch::nn::Sequential(torch::nn::Functional(torch::relu), Twice(),
                                   torch::nn::Functional([](torch::Tensor t) { return t - 1; }));
  SHOW(seq->forward(torch::tensor({-1.0, 2.0})));
  SHOW(printed(seq));
}

// Options builders: chained setters, getters, and the module's public `options`.
void options_builders() {
  torch::nn::Linear no_bias(torch::nn::LinearOptions(3, 1).bias(false));
  SHOW(no_bias->options.in_features());
  SHOW(no_bias->options.bias());
  SHOW(no_bias->bias.defined());
  SHOW(keys_of(no_bias->named_parameters()));
  SHOW(printed(no_bias));
  auto linear_options = torch::nn::LinearOptions(2, 5);
  linear_options.out_features(6);
  SHOW(torch::nn::Linear(linear_options)->weight.sizes());

  torch::nn::Dropout dropout(torch::nn::DropoutOptions(0.25));
  SHOW(dropout->options.p());
  SHOW(printed(dropout));
  SHOW(torch::nn::Dropout(torch::nn::DropoutOptions().p(0.1))->options.p());

  torch::nn::Embedding embedding(torch::nn::EmbeddingOptions(5, 2).padding_idx(0));
  SHOW(embedding->options.padding_idx().value());
  SHOW(embedding->options.embedding_dim());
  SHOW(embedding->weight[0]);
  SHOW(printed(embedding));

  torch::nn::LayerNorm norm(torch::nn::LayerNormOptions({4}).eps(1e-3).elementwise_affine(false));
  SHOW(norm->options.eps());
  SHOW(norm->options.normalized_shape());
  SHOW(norm->parameters().size());
  SHOW(printed(norm));

  torch::nn::Conv2d conv(torch::nn::Conv2dOptions(1, 8, 3).padding(1).stride({2, 1}).bias(false));
  SHOW(conv->weight.sizes());
  SHOW(conv->bias.defined());
  SHOW(conv->options.out_channels());
  SHOW(conv->options.kernel_size()->at(1));
  SHOW(printed(conv));
  SHOW(conv(torch::ones({1, 1, 6, 6})).sizes());
  torch::nn::MaxPool2d pool(torch::nn::MaxPool2dOptions(3).stride(2).padding(1));
  SHOW(pool->options.stride()->at(0));
  SHOW(printed(pool));
  SHOW(pool(torch::ones({1, 1, 6, 6})).sizes());
  torch::nn::BatchNorm2d batch_norm(
      torch::nn::BatchNorm2dOptions(8).eps(1e-3).momentum(0.2).affine(false));
  SHOW(batch_norm->options.eps());
  SHOW(batch_norm->options.momentum().value());
  SHOW(keys_of(batch_norm->named_buffers()));
  SHOW(batch_norm->parameters().size());
  SHOW(printed(batch_norm));
  SHOW(
      printed(torch::nn::BatchNorm1d(torch::nn::BatchNorm1dOptions(4).track_running_stats(false))));

  const torch::Tensor x = torch::tensor({{0.0, 1.0, -2.0}, {3.0, 0.5, 0.0}});
  SHOW(torch::nn::Identity()(x).data_ptr() == x.data_ptr());
  SHOW(torch::nn::SiLU()(x));
  SHOW(torch::nn::Mish()(x));
  SHOW(torch::nn::LogSigmoid()(x));
  SHOW(torch::nn::functional::logsigmoid(x));
  SHOW(torch::hardsigmoid(x));
  SHOW(torch::hardswish(x));
  SHOW(torch::nn::Softmax(1)(x));
  SHOW(torch::nn::Softmin(0)(x));
  SHOW(torch::nn::LogSoftmax(torch::nn::LogSoftmaxOptions(1))(x));
  SHOW(torch::nn::functional::softmin(x, torch::nn::functional::SoftminFuncOptions(1)));
  SHOW(torch::nn::Softmax(0)->clone()->as<torch::nn::Softmax>()->options.dim());
}

// Each layer's line, as LibTorch's pretty_print writes it.
void printed_layers() {
  SHOW(printed(torch::nn::Linear(3, 4)));
  SHOW(printed(torch::nn::ReLU()));
  SHOW(printed(torch::nn::GELU()));
  SHOW(printed(torch::nn::Sigmoid()));
  SHOW(printed(torch::nn::Tanh()));
  SHOW(printed(torch::nn::Flatten()));
  SHOW(printed(torch::nn::Identity()));
  SHOW(printed(torch::nn::SiLU()));
  SHOW(printed(torch::nn::Mish()));
  SHOW(printed(torch::nn::LogSigmoid()));
  SHOW(printed(torch::nn::Softmax(1)));
  SHOW(printed(torch::nn::Softmin(torch::nn::SoftminOptions(0))));
  SHOW(printed(torch::nn::LogSoftmax(-1)));
  SHOW(printed(torch::nn::Dropout()));
  SHOW(printed(torch::nn::Conv2d(1, 8, 3)));
  SHOW(printed(torch::nn::MaxPool2d(2)));
  SHOW(printed(torch::nn::BatchNorm1d(4)));
  SHOW(printed(torch::nn::BatchNorm2d(8)));
  SHOW(printed(torch::nn::LayerNorm(std::vector<int64_t>{4})));
  SHOW(printed(torch::nn::Embedding(10, 3)));
  SHOW(printed(torch::nn::MSELoss()));
  SHOW(printed(torch::nn::NLLLoss()));
  SHOW(printed(torch::nn::CrossEntropyLoss()));
  SHOW(printed(torch::nn::BCEWithLogitsLoss()));
}

}  // namespace

void nn_modules() {
  torch_api::section("nn modules");
  custom_module();
  casts_and_apply();
  moves_and_grads();
  cloning();
  sequential();
  containers();
  options_builders();
  printed_layers();
}
