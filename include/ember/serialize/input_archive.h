// serialize::InputArchive: LibTorch's named values read back from a file. It reads any .pt file
// Python's torch.save or ember wrote: a state dict (flat, "fc.weight"), a checkpoint dict (read
// "model" as a nested archive), a tensor (key "0") or a list of tensors ("0", "1", ...).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "ember/device.h"
#include "ember/ivalue.h"
#include "ember/macros.h"

namespace ember::serialize {

class EMBER_API InputArchive final {
 public:
  InputArchive() = default;
  InputArchive(InputArchive&&) = default;
  InputArchive& operator=(InputArchive&&) = default;
  InputArchive(InputArchive&) = delete;
  InputArchive& operator=(InputArchive&) = delete;

  // read() throws an ember::Error naming the key (with its path) when it is absent; try_read()
  // says whether it was there.
  void read(const std::string& key, IValue& ivalue);
  bool try_read(const std::string& key, IValue& ivalue);
  // Into a defined tensor, the file's values replace its data in place (under no_grad), so a
  // module's parameters stay the same tensors; an undefined one becomes the file's tensor.
  void read(const std::string& key, Tensor& tensor, bool is_buffer = false);
  bool try_read(const std::string& key, Tensor& tensor, bool is_buffer = false);
  // The entries under "key." (or the dictionary at `key`).
  void read(const std::string& key, InputArchive& archive);
  bool try_read(const std::string& key, InputArchive& archive);

  // Tensors go to `device` when given, else where the file puts them.
  void load_from(const std::string& filename, std::optional<Device> device = std::nullopt);
  void load_from(std::istream& stream, std::optional<Device> device = std::nullopt);
  void load_from(const char* data, size_t size, std::optional<Device> device = std::nullopt);
  void load_from(const std::function<size_t(uint64_t pos, void* buf, size_t nbytes)>& read_func,
                 const std::function<size_t(void)>& size_func,
                 std::optional<Device> device = std::nullopt);

  // The names at this level: "fc" for "fc.weight", in file order.
  std::vector<std::string> keys();

  template <typename... Ts>
  void operator()(Ts&&... ts) {
    read(std::forward<Ts>(ts)...);
  }

 private:
  void set_root(const IValue& file_value, const std::string& name);
  std::optional<IValue> find(const std::string& key) const;

  Dict<IValue, IValue> root_;
  std::string prefix_;  // of this archive's keys in root_ ("fc." in a nested one)
  std::string name_;    // the file, for messages
};

}  // namespace ember::serialize
