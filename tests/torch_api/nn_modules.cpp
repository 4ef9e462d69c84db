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

// Each layer's line, as LibTorch's pretty_print writes it.
void printed_layers() {
  SHOW(printed(torch::nn::Linear(3, 4)));
  SHOW(printed(torch::nn::ReLU()));
  SHOW(printed(torch::nn::GELU()));
  SHOW(printed(torch::nn::Sigmoid()));
  SHOW(printed(torch::nn::Tanh()));
  SHOW(printed(torch::nn::Flatten()));
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
  sequential();
  printed_layers();
}
