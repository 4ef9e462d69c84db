// ember's half of tests/interop/pt_roundtrip.py: reads the files Python's torch.save wrote there
// and writes back what it read, a model's output and a saved module, for Python to check. Skips
// unless that script runs it (EMBER_INTEROP_DIR).
#include <gtest/gtest.h>

#include <fstream>

#include "ember/ember.h"
#include "io/interop_fixture.h"

namespace ember {
namespace {

IValue load_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return pickle_load(
      std::vector<char>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>()));
}

void save_file(const IValue& value, const std::string& path) {
  std::vector<char> bytes = pickle_save(value);
  std::ofstream(path, std::ios::binary)
      .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

class PtInterop : public test::InteropTest {};

TEST_F(PtInterop, TensorsComeBackAsPythonWroteThem) {
  Dict<IValue, IValue> tensors = load_file(path("tensors.pt")).toGenericDict();
  Tensor base = tensors.at("base").toTensor();
  EXPECT_EQ(base.scalar_type(), kDouble);
  EXPECT_TRUE(equal(tensors.at("row").toTensor(), base[2]));
  EXPECT_TRUE(equal(tensors.at("cols").toTensor(), base.slice(1, 1, 6, 2)));
  EXPECT_EQ(tensors.at("t").toTensor().strides(), (std::vector<int64_t>{1, 6}));
  EXPECT_TRUE(
      equal(tensors.at("torch.int16").toTensor(), arange(-3, 9, kShort).reshape({3, 4}).t()));
  save_file(tensors, path("tensors_from_ember.pt"));
}

TEST_F(PtInterop, APythonTrainedModelGivesPythonsOutputs) {
  auto net = nn::Sequential(nn::Linear(5, 8), nn::Tanh(), nn::Linear(8, 3));
  load(net, path("model.pt"));
  Dict<IValue, IValue> ckpt = load_file(path("checkpoint.pt")).toGenericDict();
  Tensor x = ckpt.at("x").toTensor();
  Tensor y = net->forward(x);
  EXPECT_TRUE(allclose(y, ckpt.at("y").toTensor(), 1e-5, 1e-6));
  EXPECT_EQ(ckpt.at("epoch").toInt(), 5);
  Dict<IValue, IValue> out;
  out.insert("y", y.detach());
  out.insert("epoch", ckpt.at("epoch"));
  out.insert("loss", ckpt.at("loss"));
  out.insert("tag", ckpt.at("tag"));
  save_file(out, path("output_from_ember.pt"));
  save(net, path("module_from_ember.pt"));
}

TEST_F(PtInterop, AnAdamCheckpointTrainsOnAsInPython) {
  auto net = nn::Sequential(nn::Linear(5, 8), nn::Tanh(), nn::Linear(8, 3));
  optim::Adam adam(net->parameters(), optim::AdamOptions(1.0));
  serialize::InputArchive checkpoint, model, optimizer;
  checkpoint.load_from(path("adam.pt"));
  checkpoint.read("model", model);
  net->load(model);
  checkpoint.read("optimizer", optimizer);
  adam.load(optimizer);
  const auto& options = static_cast<const optim::AdamOptions&>(adam.param_groups()[0].options());
  EXPECT_EQ(options.lr(), 0.01);
  EXPECT_EQ(std::get<1>(options.betas()), 0.99);
  EXPECT_TRUE(options.amsgrad());
  Tensor x, target;
  checkpoint.read("x", x);
  checkpoint.read("target", target);
  adam.zero_grad();
  nn::functional::mse_loss(net->forward(x), target).backward();
  adam.step();
  save(net, path("adam_model_from_ember.pt"));
  save(adam, path("adam_from_ember.pt"));
}

}  // namespace
}  // namespace ember
