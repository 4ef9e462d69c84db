// PyTorch's .pt files: the files Debian's PyTorch 1.13 wrote (tests/io/gen_pt_golden.py) read
// with their values, ember's own files read back, and every kind of bad file refused by name.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "ember/ember.h"
#include "io/zip_archive.h"
#include "test_util.h"

namespace ember {
namespace {

using namespace std::string_literals;
using test::error_of;

std::string golden(const char* name) {
  return std::string(EMBER_SOURCE_DIR "/tests/io/data/") + name;
}

std::vector<char> read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<char>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// arange(n) / 10 - 0.3 in the tensor's shape: the generator's weights.
Tensor weights_like(IntArrayRef shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return (arange(n, kFloat) / 10 - 0.3).reshape(shape);
}

nn::Sequential python_net() {
  return nn::Sequential(nn::Linear(3, 4), nn::ReLU(), nn::Linear(4, 2));
}

TEST(PtFile, ReadsAPythonStateDictIntoAModule) {
  nn::Sequential net = python_net();
  load(net, golden("state_dict.pt"));
  for (const auto& p : net->named_parameters())
    EXPECT_TRUE(allclose(p.value(), weights_like(p.value().sizes()))) << p.key();
  Tensor x = arange(6, kFloat).reshape({2, 3}) / 4;
  Tensor expected = tensor({-0.325f, 0.105f, -0.445f, 1.035f}).reshape({2, 2});
  EXPECT_TRUE(allclose(net->forward(x), expected, 1e-5, 1e-6));
  EXPECT_FALSE(net->named_parameters()["0.weight"].grad().defined());
  EXPECT_TRUE(net->named_parameters()["0.weight"].requires_grad());
}

TEST(PtFile, ReadsACheckpointDict) {
  IValue ckpt = pickle_load(read_bytes(golden("checkpoint.pt")));
  ASSERT_TRUE(ckpt.isGenericDict());
  Dict<IValue, IValue> dict = ckpt.toGenericDict();
  EXPECT_EQ(dict.at("epoch").toInt(), 3);
  EXPECT_DOUBLE_EQ(dict.at("lr").toDouble(), 0.05);
  EXPECT_EQ(dict.at("name").toStringRef(), "digits");
  List<IValue> flags = dict.at("flags").toList();
  ASSERT_EQ(flags.size(), 3u);
  EXPECT_TRUE(flags.get(0).toBool());
  EXPECT_FALSE(flags.get(1).toBool());
  EXPECT_TRUE(flags.get(2).isNone());
  std::vector<IValue> sizes = dict.at("sizes").toTupleRef().elements();
  ASSERT_EQ(sizes.size(), 2u);
  EXPECT_EQ(sizes[1].toInt(), 3);
  std::vector<std::string> keys;
  for (const auto& entry : dict) keys.push_back(entry.key().toStringRef());
  EXPECT_EQ(keys,
            (std::vector<std::string>{"model", "epoch", "lr", "name", "flags", "sizes", "output"}));

  // The nested state dict is a nested archive: torch::load reads a module from it.
  serialize::InputArchive archive;
  archive.load_from(golden("checkpoint.pt"));
  serialize::InputArchive model;
  archive.read("model", model);
  nn::Sequential net = python_net();
  net->load(model);
  Tensor x = arange(6, kFloat).reshape({2, 3}) / 4;
  EXPECT_TRUE(allclose(net->forward(x), dict.at("output").toTensor(), 1e-6, 1e-7));
  EXPECT_EQ(model.keys(), (std::vector<std::string>{"0", "2"}));

  // Or as PyTorch users write it: model.load_state_dict(checkpoint["model"]).
  nn::Sequential again = python_net();
  again->load_state_dict(dict.at("model").toGenericDict());
  EXPECT_TRUE(allclose(again->forward(x), dict.at("output").toTensor(), 1e-6, 1e-7));
  EXPECT_NE(error_of<Error>([&] {
              again->load_state_dict(dict);
            }).find("it holds a String key 'model' with a GenericDict value"),
            std::string::npos);
}

TEST(PtFile, TensorsSharingAStorageShareIt) {
  std::vector<Tensor> ts;
  load(ts, golden("tensors.pt"));
  ASSERT_EQ(ts.size(), 4u);
  EXPECT_TRUE(equal(ts[0], arange(12, kDouble).reshape({3, 4})));
  EXPECT_EQ(ts[1].storage_offset(), 4);
  EXPECT_EQ(ts[2].strides(), (std::vector<int64_t>{1, 4}));
  EXPECT_TRUE(equal(ts[2], ts[0].t()));
  EXPECT_EQ(ts[3].scalar_type(), kShort);
  EXPECT_TRUE(equal(ts[3], arange(5, kShort)));
  ts[0].fill_(7);  // one storage: the views see it
  EXPECT_EQ(ts[1][2].item<double>(), 7);
  EXPECT_EQ(ts[2][3][1].item<double>(), 7);
}

TEST(PtFile, EveryDtype) {
  Dict<IValue, IValue> dict = pickle_load(read_bytes(golden("dtypes.pt"))).toGenericDict();
  const std::pair<const char*, ScalarType> kinds[] = {
      {"float64", kDouble},    {"float32", kFloat}, {"float16", kHalf},
      {"bfloat16", kBFloat16}, {"int64", kLong},    {"int32", kInt},
      {"int16", kShort},       {"int8", kChar},     {"uint8", kByte}};
  for (const auto& [name, dtype] : kinds) {
    Tensor t = dict.at(name).toTensor();
    EXPECT_EQ(t.scalar_type(), dtype) << name;
    EXPECT_TRUE(equal(t, arange(6, kLong).reshape({2, 3}).to(dtype))) << name;
  }
  EXPECT_TRUE(equal(dict.at("bool").toTensor(),
                    tensor({false, true, false, true, false, true}).reshape({2, 3})));
  // ember writes them back, and reads its own file the same.
  Dict<IValue, IValue> again = pickle_load(pickle_save(dict)).toGenericDict();
  for (const auto& entry : dict)
    EXPECT_TRUE(equal(again.at(entry.key()).toTensor(), entry.value().toTensor()));
}

TEST(PtFile, ParameterKeepsRequiresGrad) {
  Tensor p;
  load(p, golden("parameter.pt"));  // a file holding one tensor reads as entry "0"
  EXPECT_TRUE(p.requires_grad());
  EXPECT_TRUE(p.is_leaf());
  EXPECT_TRUE(equal(p, arange(4, kFloat)));
}

TEST(PtFile, ValuesRoundTrip) {
  Dict<IValue, IValue> inner;
  inner.insert("k", int64_t{-5000000000});
  Tensor base = arange(6, kFloat).reshape({2, 3});
  Dict<IValue, IValue> dict;
  dict.insert("t", base);
  dict.insert("view", base.t());
  dict.insert("i", int64_t{-7});
  dict.insert("big", int64_t{70000});
  dict.insert("d", 2.5);
  dict.insert("b", false);
  dict.insert("none", IValue());
  dict.insert("s", "héllo");
  dict.insert("list", List<IValue>({IValue(int64_t{1}), IValue("two")}));
  dict.insert("tuple", ivalue::Tuple::create({IValue(1.5), IValue(true), IValue(), IValue(3)}));
  dict.insert("inner", inner);
  dict.insert(int64_t{4}, "int key");
  Dict<IValue, IValue> back = pickle_load(pickle_save(dict)).toGenericDict();
  ASSERT_EQ(back.size(), dict.size());
  EXPECT_TRUE(equal(back.at("t").toTensor(), base));
  Tensor view = back.at("view").toTensor();
  EXPECT_EQ(view.strides(), (std::vector<int64_t>{1, 3}));
  view.fill_(1);  // shares the storage of "t", as in the dictionary saved
  EXPECT_EQ(back.at("t").toTensor().sum().item<float>(), 6);
  EXPECT_EQ(back.at("i").toInt(), -7);
  EXPECT_EQ(back.at("big").toInt(), 70000);
  EXPECT_EQ(back.at("d").toDouble(), 2.5);
  EXPECT_FALSE(back.at("b").toBool());
  EXPECT_TRUE(back.at("none").isNone());
  EXPECT_EQ(back.at("s").toStringRef(), "héllo");
  EXPECT_EQ(back.at("list").toList().get(1).toStringRef(), "two");
  EXPECT_EQ(back.at("tuple").toTupleRef().elements()[3].toInt(), 3);
  EXPECT_EQ(back.at("inner").toGenericDict().at("k").toInt(), -5000000000);
  EXPECT_EQ(back.at(int64_t{4}).toStringRef(), "int key");
}

TEST(PtFile, ModuleSavesAndLoadsThroughFilesAndStreams) {
  nn::Sequential a = python_net();
  nn::Sequential b = python_net();
  std::string path = testing::TempDir() + "ember_module.pt";
  save(a, path);
  Tensor weight = b->named_parameters()["2.weight"];
  load(b, path);
  for (const auto& p : a->named_parameters())
    EXPECT_TRUE(equal(p.value(), b->named_parameters()[p.key()])) << p.key();
  EXPECT_TRUE(weight.is_same(b->named_parameters()["2.weight"]));  // loaded in place

  std::stringstream stream;
  save(std::vector<Tensor>{arange(3, kFloat), ones({2}, kLong)}, stream);
  std::vector<Tensor> back;
  load(back, stream);
  ASSERT_EQ(back.size(), 2u);
  EXPECT_TRUE(equal(back[1], ones({2}, kLong)));

  nn::Linear wrong(3, 5);
  EXPECT_NE(error_of<Error>([&] { load(wrong, path); }).find("no serialized tensor 'weight'"),
            std::string::npos);
  nn::Sequential shaped(nn::Linear(3, 5), nn::ReLU(), nn::Linear(5, 2));
  EXPECT_NE(
      error_of<Error>([&] { load(shaped, path); }).find("'0.weight' has shape [4, 3] in the file"),
      std::string::npos);
  std::remove(path.c_str());
}

// Trains `net` with `optimizer` for `steps` steps on fixed data.
void train(nn::Sequential& net, optim::Optimizer& optimizer, int steps) {
  Tensor x = arange(12, kFloat).reshape({4, 3}) / 6 - 1;
  Tensor target = arange(8, kFloat).reshape({4, 2}) / 8;
  for (int i = 0; i < steps; ++i) {
    optimizer.zero_grad();
    nn::functional::mse_loss(net->forward(x), target).backward();
    optimizer.step();
  }
}

// An optimizer saved mid-training and loaded into a fresh one over a copy of the model trains on
// exactly as the original does.
template <class Optimizer, class Options>
void expect_optimizer_round_trip(const Options& options) {
  nn::Sequential a = python_net();
  Optimizer first(a->parameters(), options);
  train(a, first, 3);
  std::stringstream model, state;
  save(a, model);
  save(first, state);
  nn::Sequential b = python_net();
  load(b, model);
  Optimizer second(b->parameters(), Options(123.0));
  load(second, state);
  train(a, first, 2);
  train(b, second, 2);
  for (const auto& p : a->named_parameters())
    EXPECT_TRUE(equal(p.value(), b->named_parameters()[p.key()])) << p.key();
}

TEST(PtFile, OptimizersSaveAndLoadTheirState) {
  expect_optimizer_round_trip<optim::SGD>(optim::SGDOptions(0.1).momentum(0.9).nesterov(true));
  expect_optimizer_round_trip<optim::Adam>(optim::AdamOptions(0.01).amsgrad(true));
  expect_optimizer_round_trip<optim::AdamW>(optim::AdamWOptions(0.01));
  expect_optimizer_round_trip<optim::RMSprop>(
      optim::RMSpropOptions(0.01).momentum(0.5).centered(true));
  expect_optimizer_round_trip<optim::Adagrad>(optim::AdagradOptions(0.1).lr_decay(0.01));

  // The file's layout is Python's optimizer.state_dict().
  nn::Sequential net = python_net();
  optim::SGD sgd(net->parameters(), optim::SGDOptions(0.1).momentum(0.9));
  train(net, sgd, 1);
  Dict<IValue, IValue> saved = pickle_load([&] {
                                 std::stringstream out;
                                 save(sgd, out);
                                 std::string s = out.str();
                                 return std::vector<char>(s.begin(), s.end());
                               }())
                                   .toGenericDict();
  Dict<IValue, IValue> group = saved.at("param_groups").toList().get(0).toGenericDict();
  EXPECT_EQ(group.at("momentum").toDouble(), 0.9);
  EXPECT_EQ(group.at("params").toList().size(), 4u);
  EXPECT_TRUE(
      saved.at("state").toGenericDict().at(int64_t{3}).toGenericDict().contains("momentum_buffer"));

  // Loading into an optimizer over other parameters is refused before anything changes.
  std::stringstream state;
  save(sgd, state);
  optim::SGD fewer(std::vector<Tensor>{net->parameters()[0]}, optim::SGDOptions(0.1));
  EXPECT_NE(error_of<Error>([&] {
              load(fewer, state);
            }).find("the saved optimizer has param groups of sizes [4], this one [1]"),
            std::string::npos);
}

// A .pt archive holding `pickle` as its data.pkl and `storage` as storage "0".
std::vector<char> archive_of(const std::string& pickle, const std::string& storage = "") {
  io::ZipWriter zip("[test] ");
  zip.add("archive/data.pkl", pickle);
  if (!storage.empty()) zip.add("archive/data/0", storage);
  return zip.finish();
}

TEST(PtFile, RefusesWhatItCannotTrust) {
  auto load_error = [](const std::vector<char>& bytes) {
    return error_of<Error>([&] { pickle_load(bytes); });
  };
  // A global that would run code.
  EXPECT_NE(load_error(archive_of("\x80\x02"
                                  "cposix\nsystem\nX\x02\x00\x00\x00ls\x85R."s))
                .find("the global 'posix.system' is not allowed"),
            std::string::npos);
  EXPECT_NE(load_error(archive_of("\x80\x02\xff.")).find("opcode 0xff is not one ember reads"),
            std::string::npos);
  EXPECT_NE(load_error(archive_of("\x80\x02(K\x01")).find("the pickle ends early"),
            std::string::npos);
  EXPECT_NE(load_error(archive_of("\x80\x02h\x05."s)).find("memo entry 5 was never stored"),
            std::string::npos);
  // A dictionary changed after it was used: the start of a cycle.
  EXPECT_NE(load_error(archive_of("\x80\x02}q\x00]h\x00\x61h\x00K\x01h\x00s."s))
                .find("changes a container after using it"),
            std::string::npos);
  // A tensor reaching past its storage: FloatStorage of 2 elements, size (3,).
  std::string tensor_pickle =
      "\x80\x02"
      "ctorch._utils\n_rebuild_tensor_v2\n((X\x07\x00\x00\x00storagectorch\n"
      "FloatStorage\nX\x01\x00\x00\x00"
      "0X\x03\x00\x00\x00"
      "cpuK\x02tQK\x00K\x03\x85K\x01\x85"
      "\x89NtR."s;
  EXPECT_NE(load_error(archive_of(tensor_pickle, std::string(8, '\0'))).find("reaches past"),
            std::string::npos);
  EXPECT_NE(load_error(archive_of(tensor_pickle, std::string(4, '\0')))
                .find("holds 4 bytes, fewer than its 2 Float elements need"),
            std::string::npos);
  // A record that is not a whole number of elements (found by fuzz.pt: it overflowed the buffer).
  EXPECT_NE(load_error(archive_of(tensor_pickle, std::string(9, '\0')))
                .find("holds 9 bytes, not a whole number of 4-byte Float elements"),
            std::string::npos);

  // A bool storage's bytes other than 0 and 1 read as true, stored as 1 (ember's bools are 0/1).
  std::string bools = tensor_pickle;
  bools.replace(bools.find("FloatStorage"), 12, "BoolStorage");
  bools.replace(bools.find("K\x03\x85"), 3, "K\x02\x85");  // size (2,)
  Tensor flags = pickle_load(archive_of(bools, "\x07\x00"s)).toTensor();
  EXPECT_TRUE(equal(flags.to(kByte), tensor({1, 0}).to(kByte)));

  std::vector<char> good = read_bytes(golden("state_dict.pt"));
  std::vector<char> cut(good.begin(), good.begin() + static_cast<ptrdiff_t>(good.size() / 2));
  EXPECT_NE(load_error(cut).find("cannot read it as a zip archive"), std::string::npos);
  std::vector<char> legacy = {'\x80', '\x02', '\x8a', '\x0a', '\x6c', '\xfc',
                              '\x9c', '\x46', '\xf9', '\x20', '\x6a', '\xa8'};
  EXPECT_NE(load_error(legacy).find("legacy (before 1.6) file format"), std::string::npos);
  EXPECT_NE(load_error({'a', 'b', 'c'}).find("not a PyTorch file"), std::string::npos);
}

TEST(PtFile, RefusesACorruptRecord) {
  std::vector<char> bytes = archive_of("\x80\x02K\x07.");
  // Flip a byte of the stored pickle: its CRC no longer matches.
  std::string text(bytes.begin(), bytes.end());
  size_t at = text.find("\x80\x02K\x07.");
  ASSERT_NE(at, std::string::npos);
  bytes[at + 3] = '\x08';
  EXPECT_NE(error_of<Error>([&] { pickle_load(bytes); }).find("CRC"), std::string::npos);
  bytes[at + 3] = '\x07';
  EXPECT_EQ(pickle_load(bytes).toInt(), 7);
}

// A record whose directory entries claim far more bytes than its compressed data can expand to
// (a zip bomb's first trick) is refused before anything is allocated for it.
TEST(PtFile, RefusesSizesTheArchiveCannotJustify) {
  io::ZipWriter zip("[test] ");
  zip.add("archive/data.pkl", std::string("\x80\x02K\x07."s));
  zip.add("archive/data/0", std::string(1 << 16, '\0'), /*compress=*/true);
  std::vector<char> bytes = zip.finish();
  // Both the local header and the central directory say 65536 (0x00010000); make it 0xfff00000,
  // about 4 GiB from under a hundred compressed bytes.
  const char original[] = {'\x00', '\x00', '\x01', '\x00'};
  int patched = 0;
  for (size_t i = 0; i + 4 <= bytes.size(); ++i) {
    if (std::equal(original, original + 4, bytes.begin() + static_cast<ptrdiff_t>(i))) {
      bytes[i + 2] = '\xf0';
      bytes[i + 3] = '\xff';
      ++patched;
    }
  }
  ASSERT_GE(patched, 2);
  io::ZipReader reader =
      io::ZipReader::from_bytes(bytes.data(), bytes.size(), "bomb.pt", "[test] ");
  std::string message = error_of<Error>([&] { reader.size("archive/data/0"); });
  EXPECT_NE(message.find("record 'archive/data/0' claims 4293918720 bytes from"), std::string::npos)
      << message;
}

}  // namespace
}  // namespace ember
