// The generic dictionary: entries in insertion order, found through a hash index of their keys.
#include <functional>
#include <unordered_map>
#include <vector>

#include "core/check.h"
#include "core/tensor_impl.h"
#include "ember/ivalue.h"

namespace ember {
namespace detail {

// Keys hash as LibTorch's do: by value for strings and numbers, by identity for tensors.
struct KeyHash {
  size_t operator()(const IValue& key) const {
    if (key.isString()) return std::hash<std::string>()(key.toStringRef());
    if (key.isInt()) return std::hash<int64_t>()(key.toInt());
    if (key.isDouble()) return std::hash<double>()(key.toDouble());
    if (key.isBool()) return std::hash<bool>()(key.toBool());
    if (key.isTensor()) return std::hash<const void*>()(impl_of(key.toTensor()));
    if (key.isNone()) return 0;
    fail<TypeError>("[Dict] a ", key.tagKind(),
                    " cannot be a dictionary key; keys are strings, ints, doubles, bools, "
                    "tensors or None");
  }
};

struct KeyEqual {
  bool operator()(const IValue& a, const IValue& b) const {
    if (a.tagKind() != b.tagKind()) return false;
    if (a.isString()) return a.toStringRef() == b.toStringRef();
    if (a.isInt()) return a.toInt() == b.toInt();
    if (a.isDouble()) return a.toDouble() == b.toDouble();
    if (a.isBool()) return a.toBool() == b.toBool();
    if (a.isTensor()) return a.toTensor().is_same(b.toTensor());
    return a.isNone();
  }
};

struct DictImpl {
  std::vector<std::pair<IValue, IValue>> entries;
  std::unordered_map<IValue, size_t, KeyHash, KeyEqual> index;

  void reindex() {
    index.clear();
    for (size_t i = 0; i < entries.size(); ++i) index.emplace(entries[i].first, i);
  }
};

}  // namespace detail

using GenericDict = Dict<IValue, IValue>;

const IValue& GenericDict::EntryRef::key() const { return entry_->first; }
const IValue& GenericDict::EntryRef::value() const { return entry_->second; }
void GenericDict::EntryRef::setValue(IValue value) const { entry_->second = std::move(value); }

GenericDict::iterator& GenericDict::iterator::operator++() {
  ++ref_.entry_;
  return *this;
}

GenericDict::Dict() : impl_(std::make_shared<detail::DictImpl>()) {}

GenericDict::iterator GenericDict::begin() const { return iterator(impl_->entries.data()); }
GenericDict::iterator GenericDict::end() const {
  return iterator(impl_->entries.data() + impl_->entries.size());
}
bool GenericDict::empty() const { return impl_->entries.empty(); }
size_t GenericDict::size() const { return impl_->entries.size(); }
void GenericDict::clear() const {
  impl_->entries.clear();
  impl_->index.clear();
}
void GenericDict::reserve(size_t count) const {
  impl_->entries.reserve(count);
  impl_->index.reserve(count);
}

std::pair<GenericDict::iterator, bool> GenericDict::insert(IValue key, IValue value) const {
  auto [slot, added] = impl_->index.emplace(key, impl_->entries.size());
  if (added) impl_->entries.emplace_back(std::move(key), std::move(value));
  return {iterator(impl_->entries.data() + slot->second), added};
}

std::pair<GenericDict::iterator, bool> GenericDict::insert_or_assign(IValue key,
                                                                     IValue value) const {
  auto found = insert(std::move(key), value);
  if (!found.second) found.first->setValue(std::move(value));
  return found;
}

GenericDict::iterator GenericDict::find(const IValue& key) const {
  auto slot = impl_->index.find(key);
  return slot == impl_->index.end() ? end() : iterator(impl_->entries.data() + slot->second);
}

bool GenericDict::contains(const IValue& key) const { return impl_->index.count(key) != 0; }

IValue GenericDict::at(const IValue& key) const {
  auto slot = impl_->index.find(key);
  if (slot == impl_->index.end()) {
    detail::fail<IndexError>("[Dict] no entry for the key ",
                             key.isString() ? "'" + key.toStringRef() + "'"
                             : key.isInt()  ? std::to_string(key.toInt())
                                            : "of kind " + key.tagKind(),
                             " (", size(), " entries)");
  }
  return impl_->entries[slot->second].second;
}

size_t GenericDict::erase(const IValue& key) const {
  auto slot = impl_->index.find(key);
  if (slot == impl_->index.end()) return 0;
  impl_->entries.erase(impl_->entries.begin() + static_cast<std::ptrdiff_t>(slot->second));
  impl_->reindex();  // later entries moved up; erasing is rare next to lookups
  return 1;
}

GenericDict GenericDict::copy() const {
  GenericDict out;
  *out.impl_ = *impl_;
  return out;
}

bool GenericDict::is(const Dict& other) const { return impl_ == other.impl_; }

}  // namespace ember
