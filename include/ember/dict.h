// Dict: LibTorch's c10::Dict<IValue, IValue> (c10::impl::GenericDict), the dictionary an IValue
// holds: insertion-ordered, with keys that are strings, ints, doubles, bools or tensors (by
// identity). Copies share one dictionary, as in LibTorch; copy() makes an independent one.
#pragma once

#include <cstddef>
#include <memory>
#include <utility>

#include "ember/macros.h"

namespace ember {

class IValue;
namespace detail {
struct DictImpl;
}

template <class Key, class Value>
class Dict;  // ember has the generic dictionary only (README, "Coming from LibTorch")

template <>
class EMBER_API Dict<IValue, IValue> {
 public:
  // One entry, as LibTorch's DictEntryRef: key() and value(), and setValue() to change it.
  class EntryRef {
   public:
    const IValue& key() const;
    const IValue& value() const;
    void setValue(IValue value) const;

   private:
    friend class Dict;
    explicit EntryRef(std::pair<IValue, IValue>* entry) : entry_(entry) {}
    std::pair<IValue, IValue>* entry_;
  };

  class iterator {
   public:
    const EntryRef& operator*() const { return ref_; }
    const EntryRef* operator->() const { return &ref_; }
    iterator& operator++();
    bool operator==(const iterator& other) const { return ref_.entry_ == other.ref_.entry_; }
    bool operator!=(const iterator& other) const { return !(*this == other); }

   private:
    friend class Dict;
    explicit iterator(std::pair<IValue, IValue>* entry) : ref_(entry) {}
    EntryRef ref_;
  };

  Dict();

  iterator begin() const;
  iterator end() const;
  bool empty() const;
  size_t size() const;
  void clear() const;
  void reserve(size_t count) const;

  // Adds the entry unless the key is there; says which, with the key's entry.
  std::pair<iterator, bool> insert(IValue key, IValue value) const;
  std::pair<iterator, bool> insert_or_assign(IValue key, IValue value) const;
  // at() throws an ember::Error naming the key when it is absent.
  IValue at(const IValue& key) const;
  iterator find(const IValue& key) const;
  bool contains(const IValue& key) const;
  size_t erase(const IValue& key) const;

  Dict copy() const;                 // an independent dictionary with the same entries
  bool is(const Dict& other) const;  // the same dictionary, not only equal entries

 private:
  std::shared_ptr<detail::DictImpl> impl_;
};

namespace impl {
using GenericDict = Dict<IValue, IValue>;
}  // namespace impl

}  // namespace ember
