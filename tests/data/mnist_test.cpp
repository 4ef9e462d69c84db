// datasets::MNIST on tiny IDX files the test writes: LibTorch's file names, images scaled to
// [0, 1] as [N, 1, H, W] float, int64 targets, the train and test splits, and LibTorch's errors
// for a missing file and a wrong magic number; then the usual pipeline through a loader.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "ember/data.h"
#include "test_util.h"

namespace ember {
namespace {

using test::expect_values;
using MNIST = data::datasets::MNIST;

// An IDX file: magic 0 0 8 <dims>, big-endian sizes, then the bytes.
void write_idx(const std::filesystem::path& path, const std::vector<uint32_t>& sizes,
               const std::vector<uint8_t>& bytes, uint8_t type_code = 0x08) {
  std::ofstream out(path, std::ios::binary);
  const uint8_t magic[4] = {0, 0, type_code, static_cast<uint8_t>(sizes.size())};
  out.write(reinterpret_cast<const char*>(magic), 4);
  for (uint32_t size : sizes) {
    const uint8_t be[4] = {static_cast<uint8_t>(size >> 24), static_cast<uint8_t>(size >> 16),
                           static_cast<uint8_t>(size >> 8), static_cast<uint8_t>(size)};
    out.write(reinterpret_cast<const char*>(be), 4);
  }
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
}

class DataMnist : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = std::filesystem::temp_directory_path() /
            ("ember_mnist_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
             "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(root_);
    // Train: three 2x2 images; test: one.
    write_idx(root_ / "train-images-idx3-ubyte", {3, 2, 2},
              {0, 255, 51, 102, 1, 2, 3, 4, 255, 255, 0, 0});
    write_idx(root_ / "train-labels-idx1-ubyte", {3}, {7, 0, 9});
    write_idx(root_ / "t10k-images-idx3-ubyte", {1, 2, 2}, {255, 0, 0, 255});
    write_idx(root_ / "t10k-labels-idx1-ubyte", {1}, {4});
  }
  void TearDown() override { std::filesystem::remove_all(root_); }

  std::filesystem::path root_;
};

TEST_F(DataMnist, ReadsImagesAsUnitFloatsAndTargetsAsLong) {
  MNIST train(root_.string());
  EXPECT_TRUE(train.is_train());
  EXPECT_EQ(train.size(), std::optional<size_t>(3));
  test::expect_close(train.images().narrow(0, 0, 1), {1, 1, 2, 2}, {0, 1, 0.2, 0.4});
  EXPECT_EQ(train.images().scalar_type(), kFloat32);
  expect_values<int64_t>(train.targets(), {3}, {7, 0, 9});
  data::Example<> second = train.get(1);
  test::expect_close(second.data, {1, 2, 2}, {1 / 255., 2 / 255., 3 / 255., 4 / 255.});
  expect_values<int64_t>(second.target, {}, {0});

  MNIST test_split(root_.string() + "/", MNIST::Mode::kTest);
  EXPECT_FALSE(test_split.is_train());
  expect_values<int64_t>(test_split.targets(), {1}, {4});
}

TEST_F(DataMnist, LibTorchsErrorsForAMissingFileAndAWrongMagicNumber) {
  std::filesystem::remove(root_ / "t10k-labels-idx1-ubyte");
  const std::string missing = test::error_of([&] { MNIST(root_.string(), MNIST::Mode::kTest); });
  EXPECT_NE(
      missing.find("Error opening targets file at " + (root_ / "t10k-labels-idx1-ubyte").string()),
      std::string::npos)
      << missing;
  write_idx(root_ / "train-images-idx3-ubyte", {3, 4}, std::vector<uint8_t>(12));
  const std::string magic = test::error_of([&] { MNIST{root_.string()}; });
  EXPECT_NE(magic.find("Expected to read number 2051 but found 2050 instead"), std::string::npos)
      << magic;
}

TEST_F(DataMnist, NormalizedAndStackedThroughALoader) {
  auto dataset = MNIST(root_.string())
                     .map(data::transforms::Normalize<>(0.5, 0.5))
                     .map(data::transforms::Stack<>());
  auto loader = data::make_data_loader<data::samplers::SequentialSampler>(
      std::move(dataset), data::DataLoaderOptions(2));
  std::vector<int64_t> sizes;
  for (data::Example<>& batch : *loader) {
    sizes.push_back(batch.data.size(0));
    EXPECT_EQ(batch.data.dim(), 4);
    EXPECT_EQ(batch.target.dim(), 1);
  }
  EXPECT_EQ(sizes, (std::vector<int64_t>{2, 1}));
  auto first = loader->begin();
  test::expect_close(first->data.narrow(0, 0, 1), {1, 1, 2, 2}, {-1, 1, -0.6, -0.2});
}

}  // namespace
}  // namespace ember
