// OutputArchive, InputArchive and pickle_save/pickle_load: named values in PyTorch's .pt files.
#include <istream>
#include <ostream>
#include <unordered_set>

#include "core/check.h"
#include "ember/autograd.h"
#include "ember/serialize.h"
#include "io/file.h"
#include "io/pt_file.h"

namespace ember {
namespace serialize {

void OutputArchive::write(const std::string& key, const IValue& ivalue) {
  entries_.insert_or_assign(key, ivalue);
}

void OutputArchive::write(const std::string& key, const Tensor& tensor, bool /*is_buffer*/) {
  entries_.insert_or_assign(key, tensor.detach());  // a state dict's tensors need no grad
}

void OutputArchive::write(const std::string& key, OutputArchive& nested_archive) {
  for (const auto& entry : nested_archive.entries_)
    entries_.insert_or_assign(key + "." + entry.key().toStringRef(), entry.value());
}

void OutputArchive::save_to(const std::string& filename) {
  std::vector<char> bytes = io::write_pt(entries_, "[torch::save] ");
  io::write_file_atomically(filename, bytes.data(), bytes.size(), "[torch::save] ");
}

void OutputArchive::save_to(std::ostream& stream) {
  std::vector<char> bytes = io::write_pt(entries_, "[torch::save] ");
  stream.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  EMBER_CHECK(stream.good(), "[torch::save] the stream failed after taking part of ", bytes.size(),
              " bytes");
}

void OutputArchive::save_to(const std::function<size_t(const void*, size_t)>& func) {
  std::vector<char> bytes = io::write_pt(entries_, "[torch::save] ");
  size_t taken = func(bytes.data(), bytes.size());
  EMBER_CHECK(taken == bytes.size(), "[torch::save] the writer function took ", taken, " of ",
              bytes.size(), " bytes");
}

// Note [What an InputArchive reads]
// ember's archives are flat dictionaries; a nested archive is the same dictionary seen under a
// prefix ("fc."), so a state dict Python saved reads exactly as one ember saved. A dictionary
// held at a key (a checkpoint's "model") is a nested archive too. A file holding a tensor reads
// as entry "0", and one holding a list or tuple of tensors as entries "0", "1", ...
void InputArchive::set_root(const IValue& value, const std::string& name) {
  name_ = name;
  prefix_.clear();
  if (value.isGenericDict()) {
    root_ = value.toGenericDict();
    return;
  }
  root_ = Dict<IValue, IValue>();
  if (value.isTensor()) {
    root_.insert("0", value);
    return;
  }
  const std::vector<IValue>* items = value.isTuple() ? &value.toTupleRef().elements() : nullptr;
  std::vector<IValue> listed;
  if (value.isList()) {
    listed = value.toList().vec();
    items = &listed;
  }
  EMBER_CHECK(items != nullptr, "[torch::load] ", name, ": the file holds a ", value.tagKind(),
              "; an InputArchive reads a dict (a state dict or a checkpoint), a tensor or a list "
              "of tensors. torch::pickle_load reads any file");
  for (size_t i = 0; i < items->size(); ++i) root_.insert(std::to_string(i), (*items)[i]);
}

std::optional<IValue> InputArchive::find(const std::string& key) const {
  auto found = root_.find(prefix_ + key);
  if (found == root_.end()) return std::nullopt;
  return found->value();
}

bool InputArchive::try_read(const std::string& key, IValue& ivalue) {
  std::optional<IValue> found = find(key);
  if (!found) return false;
  ivalue = *found;
  return true;
}

void InputArchive::read(const std::string& key, IValue& ivalue) {
  EMBER_CHECK(try_read(key, ivalue), "[torch::load] ", name_, ": no entry '", prefix_, key, "'");
}

bool InputArchive::try_read(const std::string& key, Tensor& tensor, bool /*is_buffer*/) {
  std::optional<IValue> found = find(key);
  if (!found || !found->isTensor()) return false;
  const Tensor& read_tensor = found->toTensor();
  if (tensor.defined()) {
    EMBER_CHECK(tensor.sizes() == read_tensor.sizes(), "[torch::load] ", name_, ": '", prefix_, key,
                "' has shape ", read_tensor.sizes(), " in the file but ", tensor.sizes(),
                " in the module; was the file saved from another model?");
    NoGradGuard no_grad;
    tensor.set_data(read_tensor);
  } else {
    tensor = read_tensor;
  }
  return true;
}

void InputArchive::read(const std::string& key, Tensor& tensor, bool is_buffer) {
  EMBER_CHECK(try_read(key, tensor, is_buffer), "[torch::load] ", name_, ": no serialized tensor '",
              prefix_, key, "'", find(key) ? " (the entry is not a tensor)" : "");
}

bool InputArchive::try_read(const std::string& key, InputArchive& archive) {
  std::optional<IValue> found = find(key);
  if (found && found->isGenericDict()) {
    archive.root_ = found->toGenericDict();
    archive.prefix_.clear();
    archive.name_ = name_ + ": '" + prefix_ + key + "'";
    return true;
  }
  std::string nested = prefix_ + key + ".";
  for (const auto& entry : root_) {
    const IValue& k = entry.key();
    if (k.isString() && k.toStringRef().compare(0, nested.size(), nested) == 0) {
      archive.root_ = root_;
      archive.prefix_ = nested;
      archive.name_ = name_;
      return true;
    }
  }
  return false;
}

// A state dict has no entries for a submodule without tensors (a ReLU), so reading one always
// succeeds: what the submodule then reads names its full path when it is missing.
void InputArchive::read(const std::string& key, InputArchive& archive) {
  if (try_read(key, archive)) return;
  archive.root_ = root_;
  archive.prefix_ = prefix_ + key + ".";
  archive.name_ = name_;
}

void InputArchive::load_from(const std::string& filename, std::optional<Device> device) {
  set_root(io::read_pt_file(filename, "[torch::load] ", device), filename);
}

void InputArchive::load_from(const char* data, size_t size, std::optional<Device> device) {
  set_root(io::read_pt_bytes(data, size, "<bytes>", "[torch::load] ", device), "<bytes>");
}

void InputArchive::load_from(std::istream& stream, std::optional<Device> device) {
  std::vector<char> bytes((std::istreambuf_iterator<char>(stream)),
                          std::istreambuf_iterator<char>());
  set_root(io::read_pt_bytes(bytes.data(), bytes.size(), "<stream>", "[torch::load] ", device),
           "<stream>");
}

void InputArchive::load_from(
    const std::function<size_t(uint64_t pos, void* buf, size_t nbytes)>& read_func,
    const std::function<size_t(void)>& size_func, std::optional<Device> device) {
  std::vector<char> bytes(size_func());
  size_t got = read_func(0, bytes.data(), bytes.size());
  EMBER_CHECK(got == bytes.size(), "[torch::load] the reader function gave ", got, " of ",
              bytes.size(), " bytes");
  load_from(bytes.data(), bytes.size(), device);
}

std::vector<std::string> InputArchive::keys() {
  std::vector<std::string> out;
  std::unordered_set<std::string> seen;  // a module's keys() is asked of every submodule
  for (const auto& entry : root_) {
    if (!entry.key().isString()) continue;
    const std::string& k = entry.key().toStringRef();
    if (k.compare(0, prefix_.size(), prefix_) != 0) continue;
    std::string name = k.substr(prefix_.size(), k.find('.', prefix_.size()) - prefix_.size());
    if (seen.insert(name).second) out.push_back(std::move(name));
  }
  return out;
}

}  // namespace serialize

std::vector<char> pickle_save(const IValue& ivalue) {
  return io::write_pt(ivalue, "[torch::pickle_save] ");
}

IValue pickle_load(const std::vector<char>& data, std::optional<Device> map_location) {
  return io::read_pt_bytes(data.data(), data.size(), "<bytes>", "[torch::pickle_load] ",
                           map_location);
}

}  // namespace ember
