// torch::save and torch::load, LibTorch's: a tensor, a vector of tensors or a module (anything
// with archive operators) to and from a file, a stream or a function, in PyTorch's .pt format;
// and torch::pickle_save / pickle_load, the bytes of a .pt file for any IValue, which Python's
// torch.save writes and torch.load reads.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "ember/ivalue.h"
#include "ember/macros.h"
#include "ember/serialize/input_archive.h"
#include "ember/serialize/output_archive.h"
#include "ember/tensor.h"

namespace ember {

// A tensor is the archive's entry "0".
inline serialize::OutputArchive& operator<<(serialize::OutputArchive& archive,
                                            const Tensor& tensor) {
  archive.write("0", tensor);
  return archive;
}
inline serialize::InputArchive& operator>>(serialize::InputArchive& archive, Tensor& tensor) {
  archive.read("0", tensor);
  return archive;
}

template <typename Value, typename... SaveToArgs>
void save(const Value& value, SaveToArgs&&... args) {
  serialize::OutputArchive archive;
  archive << value;
  archive.save_to(std::forward<SaveToArgs>(args)...);
}

// Tensor i is entry "i" (Python's torch.load sees {"0": t0, "1": t1, ...}).
template <typename... SaveToArgs>
void save(const std::vector<Tensor>& tensor_vec, SaveToArgs&&... args) {
  serialize::OutputArchive archive;
  for (size_t i = 0; i < tensor_vec.size(); ++i) archive.write(std::to_string(i), tensor_vec[i]);
  archive.save_to(std::forward<SaveToArgs>(args)...);
}

template <typename Value, typename... LoadFromArgs>
void load(Value& value, LoadFromArgs&&... args) {
  serialize::InputArchive archive;
  archive.load_from(std::forward<LoadFromArgs>(args)...);
  archive >> value;
}

// Appends entries "0", "1", ... for as long as they exist (a file Python saved a list of tensors
// to reads the same way).
template <typename... LoadFromArgs>
void load(std::vector<Tensor>& tensor_vec, LoadFromArgs&&... args) {
  serialize::InputArchive archive;
  archive.load_from(std::forward<LoadFromArgs>(args)...);
  Tensor value;
  for (size_t index = 0; archive.try_read(std::to_string(index), value); ++index) {
    tensor_vec.push_back(std::move(value));
    value = Tensor();
  }
}

// The bytes of a .pt file holding `ivalue` (Python: torch.load(io.BytesIO(bytes)), with
// weights_only=True too).
EMBER_API std::vector<char> pickle_save(const IValue& ivalue);
// Reads what torch.save wrote (to a file or a buffer), through a restricted unpickler that only
// builds tensors, containers and numbers. Tensors go to `map_location` when given, else to the
// device the file names (ember's extra argument; LibTorch has none).
EMBER_API IValue pickle_load(const std::vector<char>& data,
                             std::optional<Device> map_location = std::nullopt);

}  // namespace ember
