// MNIST: the four IDX files under LibTorch's names, read by read_idx (raw or gzip-compressed),
// with LibTorch's messages for a file that cannot be opened or has the wrong magic number.
#include "ember/data/datasets/mnist.h"

#include <cstdint>
#include <fstream>

#include "core/check.h"
#include "ember/io.h"

namespace ember::data::datasets {
namespace {

// IDX magic numbers: two zero bytes, the type code (0x08: unsigned bytes), the number of dims.
constexpr uint32_t kImageMagicNumber = 0x0803;
constexpr uint32_t kTargetMagicNumber = 0x0801;

std::string join_paths(std::string head, const std::string& tail) {
  if (head.empty() || head.back() != '/') head.push_back('/');
  return head + tail;
}

void expect_magic(uint32_t found, uint32_t expected) {
  EMBER_CHECK(found == expected, "Expected to read number ", expected, " but found ", found,
              " instead");
}

// The file `name` in root as a uint8 tensor; `kind` ("images", "targets") names it in errors.
Tensor read_mnist_file(const std::string& root, const char* name, const char* kind,
                       uint32_t magic) {
  const std::string path = join_paths(root, name);
  std::ifstream file(path, std::ios::binary);
  EMBER_CHECK(file.good(), "Error opening ", kind, " file at ", path);
  unsigned char head[4] = {};
  file.read(reinterpret_cast<char*>(head), sizeof head);
  const bool gzip = head[0] == 0x1f && head[1] == 0x8b;
  if (!gzip)
    expect_magic(
        (uint32_t{head[0]} << 24) | (uint32_t{head[1]} << 16) | (uint32_t{head[2]} << 8) | head[3],
        magic);
  Tensor values = read_idx(path);
  // A compressed file's magic number is known once it is inflated.
  expect_magic(values.scalar_type() == kUInt8 ? 0x0800 + static_cast<uint32_t>(values.dim()) : 0,
               magic);
  return values;
}

}  // namespace

MNIST::MNIST(const std::string& root, Mode mode) : mode_(mode) {
  const bool train = mode == Mode::kTrain;
  Tensor images =
      read_mnist_file(root, train ? "train-images-idx3-ubyte" : "t10k-images-idx3-ubyte", "images",
                      kImageMagicNumber);
  Tensor targets =
      read_mnist_file(root, train ? "train-labels-idx1-ubyte" : "t10k-labels-idx1-ubyte", "targets",
                      kTargetMagicNumber);
  EMBER_CHECK(images.size(0) == targets.size(0), "MNIST: ", images.size(0), " images but ",
              targets.size(0), " targets in ", root);
  images_ = images.unsqueeze(1).to(kFloat32).div_(255);
  targets_ = targets.to(kInt64);
}

Example<> MNIST::get(size_t index) {
  const auto i = static_cast<int64_t>(index);
  return {images_[i], targets_[i]};
}

std::optional<size_t> MNIST::size() const { return static_cast<size_t>(images_.size(0)); }

bool MNIST::is_train() const noexcept { return mode_ == Mode::kTrain; }

const Tensor& MNIST::images() const { return images_; }

const Tensor& MNIST::targets() const { return targets_; }

}  // namespace ember::data::datasets
