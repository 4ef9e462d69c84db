// serialize::OutputArchive: LibTorch's named values on their way into a file. ember writes the
// archive as a PyTorch .pt file holding one flat dictionary ("fc.weight" -> tensor, as a Python
// state dict), so what C++ saves, Python's torch.load opens as a plain state dict.
#pragma once

#include <cstddef>
#include <functional>
#include <iosfwd>
#include <string>

#include "ember/ivalue.h"
#include "ember/macros.h"

namespace ember::serialize {

class EMBER_API OutputArchive final {
 public:
  OutputArchive() = default;
  OutputArchive(OutputArchive&&) = default;
  OutputArchive& operator=(OutputArchive&&) = default;
  OutputArchive(OutputArchive&) = delete;
  OutputArchive& operator=(OutputArchive&) = delete;

  void write(const std::string& key, const IValue& ivalue);
  // Buffers and parameters are stored alike (a state dict does not tell them apart).
  void write(const std::string& key, const Tensor& tensor, bool is_buffer = false);
  // The nested archive's entries, under "key.".
  void write(const std::string& key, OutputArchive& nested_archive);

  // Writes the .pt file whole or not at all (a temporary file, then renamed over `filename`).
  void save_to(const std::string& filename);
  void save_to(std::ostream& stream);
  // `func` receives the bytes, maybe in parts, and returns how many it took.
  void save_to(const std::function<size_t(const void*, size_t)>& func);

  template <typename... Ts>
  void operator()(Ts&&... ts) {
    write(std::forward<Ts>(ts)...);
  }

  // The entries written so far: what save_to pickles.
  const Dict<IValue, IValue>& entries() const { return entries_; }

 private:
  Dict<IValue, IValue> entries_;
};

}  // namespace ember::serialize
