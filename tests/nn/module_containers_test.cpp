// Where ember's modules go beyond LibTorch 1.13 or differ from it: ModuleList::insert renames,
// built-in layers' names, pointers to a module not held by a shared_ptr, AnyModule's checks.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "ember/nn.h"
#include "test_util.h"

namespace ember::test {
namespace {

std::vector<std::string> child_names(const nn::Module& module) {
  return module.named_children().keys();
}

// LibTorch 1.13's insert leaves the moved modules under stale names; ember renames them all.
TEST(NnContainers, ModuleListInsertRenumbersItsChildren) {
  nn::ModuleList list(nn::Linear(3, 2), nn::ReLU());
  list->insert(0, nn::Tanh());
  EXPECT_EQ(child_names(*list), (std::vector<std::string>{"0", "1", "2"}));
  EXPECT_EQ(list[0]->name(), "Tanh");
  EXPECT_EQ(list[1]->name(), "Linear");
  EXPECT_EQ(list->named_parameters().keys(), (std::vector<std::string>{"1.weight", "1.bias"}));
  EXPECT_THROW(list->insert(5, nn::ReLU()), IndexError);
  EXPECT_THROW((void)list->ptr<nn::LinearImpl>(0), TypeError);
}

// ember's layers are named as PyTorch's classes (LibTorch: "torch::nn::LinearImpl"); a user's
// module by its demangled type.
struct Plain : nn::Module {};

TEST(NnContainers, NamesOfBuiltInAndUserModules) {
  EXPECT_EQ(nn::Linear(2, 2)->name(), "Linear");
  EXPECT_EQ(nn::Sequential()->name(), "Sequential");
  EXPECT_EQ(Plain().name(), "ember::test::(anonymous namespace)::Plain");
  EXPECT_EQ(nn::Module("Custom").name(), "Custom");
}

TEST(NnContainers, EmptyHolderRefusesAccess) {
  nn::Linear empty{nullptr};
  EXPECT_TRUE(empty.is_empty());
  EXPECT_FALSE(static_cast<bool>(empty));
  EXPECT_NE(error_of<ValueError>([&] { (void)empty->weight; }).find("Accessing empty ModuleHolder"),
            std::string::npos);
  EXPECT_THROW((void)empty(ones({1, 1})), ValueError);
}

// modules() and the pointer form of apply() hand out shared_ptrs to the module itself.
TEST(NnContainers, PointersNeedASharedModule) {
  Plain on_stack;
  EXPECT_EQ(on_stack.modules(/*include_self=*/false).size(), 0u);
  EXPECT_THROW((void)on_stack.modules(), ValueError);
  auto shared = std::make_shared<Plain>();
  EXPECT_EQ(shared->modules().size(), 1u);
}

// AnyModule calls a forward of any arity: a loss's two-tensor forward, refused with one tensor.
TEST(NnContainers, AnyModuleCallsAForwardOfAnyArity) {
  nn::AnyModule loss(nn::MSELoss{});
  expect_values<float>(loss.forward(ones({2}), zeros({2})), {}, {1.0f});
  EXPECT_THROW((void)loss.forward(ones({2})), TypeError);
  nn::AnyModule empty;
  EXPECT_TRUE(empty.is_empty());
  EXPECT_THROW((void)empty.forward(ones({2})), ValueError);
  nn::AnyModule tanh(nn::Tanh{});
  expect_values<float>(tanh.forward(zeros({2})), {2}, {0.0f, 0.0f});
  EXPECT_EQ(tanh.get<nn::TanhImpl>().name(), "Tanh");
}

TEST(NnContainers, ReplaceModuleNeedsAnExistingName) {
  nn::Sequential seq(nn::Linear(2, 2));
  EXPECT_THROW((void)seq->replace_module("1", nn::ReLU()), ValueError);
  seq->replace_module("0", nn::ReLU());
  EXPECT_EQ(seq->named_children()["0"]->name(), "ReLU");
}

}  // namespace
}  // namespace ember::test
