// Area 7 (issue 22): a LibTorch training program end to end. MNIST's test split (10,000 28x28
// images, the count LibTorch's reader requires) is written as IDX files, read through
// datasets::MNIST, normalised and stacked, batched by make_data_loader; a TORCH_MODULE network
// built from options builders and containers trains 20 steps with SGD and with Adam from the
// same deterministic weights. The losses, printed to 4 decimals, must agree with LibTorch's.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "torch_api.h"

namespace {

// An IDX file: magic (0x0000 08 <dims>), the big-endian sizes, then bytes of value(i).
template <class Value>
void write_idx(const std::filesystem::path& path, std::vector<uint32_t> sizes, Value&& value) {
  std::ofstream out(path, std::ios::binary);
  auto word = [&](uint32_t v) {
    const char bytes[4] = {static_cast<char>(v >> 24), static_cast<char>(v >> 16),
                           static_cast<char>(v >> 8), static_cast<char>(v)};
    out.write(bytes, 4);
  };
  word(0x0800 + static_cast<uint32_t>(sizes.size()));
  size_t count = 1;
  for (uint32_t s : sizes) {
    word(s);
    count *= s;
  }
  std::vector<char> bytes(count);
  for (size_t i = 0; i < count; ++i) bytes[i] = static_cast<char>(value(i));
  out.write(bytes.data(), static_cast<std::streamsize>(count));
}

// Images whose pixels follow their label, so that a few steps learn something.
std::filesystem::path write_mnist_test_split() {
  auto root = std::filesystem::temp_directory_path() /
              ("torch_api_mnist_" + std::to_string(static_cast<long>(getpid())));
  std::filesystem::create_directories(root);
  constexpr size_t kImages = 10000, kPixels = 28 * 28;
  write_idx(root / "t10k-images-idx3-ubyte", {kImages, 28, 28}, [](size_t i) {
    const size_t image = i / kPixels, pixel = i % kPixels, label = image % 10;
    return (pixel * (label + 3) + image) % 256 < 96 + 10 * label ? 220 : 10;
  });
  write_idx(root / "t10k-labels-idx1-ubyte", {kImages}, [](size_t i) { return i % 10; });
  return root;
}

struct NetImpl : torch::nn::Module {
  NetImpl() {
    features = register_module(
        "features",
        torch::nn::Sequential(
            torch::nn::Conv2d(torch::nn::Conv2dOptions(1, 4, 3).stride(2).padding(1)),
            torch::nn::BatchNorm2d(torch::nn::BatchNorm2dOptions(4).momentum(0.2)),
            torch::nn::ReLU(torch::nn::ReLUOptions().inplace(true)),
            torch::nn::MaxPool2d(torch::nn::MaxPool2dOptions(2)), torch::nn::Flatten()));
    heads = register_module(
        "heads", torch::nn::ModuleList(torch::nn::Linear(196, 32), torch::nn::Linear(32, 10)));
  }
  torch::Tensor forward(torch::Tensor x) {
    x = features->forward(x);
    x = torch::nn::functional::gelu(heads[0]->as<torch::nn::Linear>()->forward(x));
    return heads[1]->as<torch::nn::Linear>()->forward(x);
  }
  torch::nn::Sequential features{nullptr};
  torch::nn::ModuleList heads{nullptr};
};
TORCH_MODULE(Net);

// The same weights in both libraries: a fixed smooth pattern, small enough to train from.
Net deterministic_net() {
  Net net;
  torch::NoGradGuard no_grad;
  double phase = 0;
  for (auto& parameter : net->parameters()) {
    auto n = parameter.numel();
    parameter.copy_(
        torch::arange(n, torch::kDouble).mul(0.37).add(phase).sin().mul(0.2).view_as(parameter));
    phase += 1;
  }
  return net;
}

template <class Optimizer, class Options>
std::string train(const std::filesystem::path& root, Options options) {
  namespace data = torch::data;
  auto dataset = data::datasets::MNIST(root.string(), data::datasets::MNIST::Mode::kTest)
                     .map(data::transforms::Normalize<>(0.1307, 0.3081))
                     .map(data::transforms::Stack<>());
  auto loader = data::make_data_loader<data::samplers::SequentialSampler>(
      std::move(dataset), data::DataLoaderOptions(64).drop_last(true));
  Net net = deterministic_net();
  Optimizer optimizer(net->parameters(), options);
  std::string losses;
  int step = 0;
  for (auto& batch : *loader) {
    optimizer.zero_grad();
    torch::Tensor loss =
        torch::nn::functional::cross_entropy(net->forward(batch.data), batch.target);
    loss.backward();
    torch::nn::utils::clip_grad_norm_(net->parameters(), 5.0);
    optimizer.step();
    char text[16];
    std::snprintf(text, sizeof text, "%.4f", loss.item<double>());
    losses += (losses.empty() ? "" : " ") + std::string(text);
    if (++step == 20) break;
  }
  return losses;
}

}  // namespace

void training() {
  torch_api::section("training: MNIST pipeline, a TORCH_MODULE network, 20 steps");
  const std::filesystem::path root = write_mnist_test_split();
  SHOW(train<torch::optim::SGD>(root, torch::optim::SGDOptions(0.05).momentum(0.9)));
  SHOW(train<torch::optim::Adam>(root, torch::optim::AdamOptions(1e-3).betas({0.9, 0.99})));
  std::filesystem::remove_all(root);
}
