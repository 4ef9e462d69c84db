// The pickler: protocol 2, the opcodes Python's own pickler uses for the same values.
#include "io/pickler.h"

#include <bit>
#include <cstring>
#include <map>
#include <utility>

#include "core/check.h"
#include "core/tensor_impl.h"
#include "io/storage_types.h"

namespace ember::io {
namespace {

const char* storage_type(ScalarType dtype) {
  const char* name = storage_type_name(dtype);
  if (name == nullptr)
    detail::fail<TypeError>("[pickle] a ", toString(dtype),
                            " tensor has no PyTorch storage type to be saved as");
  return name;
}

class Pickler {
 public:
  explicit Pickler(std::vector<Tensor>& storages) : storages_(storages) {}

  std::string run(const IValue& value) {
    out_ += "\x80\x02";  // PROTO 2
    put(value);
    out_ += '.';  // STOP
    return std::move(out_);
  }

 private:
  void put(const IValue& v) {
    if (v.isNone()) {
      out_ += 'N';
    } else if (v.isBool()) {
      out_ += v.toBool() ? '\x88' : '\x89';
    } else if (v.isInt()) {
      put_int(v.toInt());
    } else if (v.isDouble()) {
      out_ += 'G';
      put_bytes(__builtin_bswap64(std::bit_cast<uint64_t>(v.toDouble())), 8);  // big-endian
    } else if (v.isString()) {
      put_string(v.toStringRef());
    } else if (v.isTensor()) {
      put_tensor(v.toTensor());
    } else if (v.isTuple()) {
      put_tuple(v.toTupleRef().elements());
    } else if (v.isGenericDict()) {
      out_ += '}';  // EMPTY_DICT
      const Dict<IValue, IValue> dict = v.toGenericDict();
      if (dict.empty()) return;
      out_ += '(';
      for (const auto& entry : dict) {
        put(entry.key());
        put(entry.value());
      }
      out_ += 'u';  // SETITEMS
    } else if (v.isList()) {
      put_list(v.toList());
    } else if (v.isIntList()) {
      put_list(v.toIntVector());
    } else if (v.isDoubleList()) {
      put_list(v.toDoubleVector());
    } else if (v.isTensorList()) {
      put_list(v.toTensorVector());
    } else {
      detail::fail<TypeError>("[pickle] cannot pickle a ", v.tagKind());
    }
  }

  void put_bytes(uint64_t value, int n) {  // little-endian
    for (int i = 0; i < n; ++i) out_ += static_cast<char>((value >> (8 * i)) & 0xff);
  }
  void put_int(int64_t i) {
    if (i >= 0 && i < 256) {
      out_ += 'K';  // BININT1
      put_bytes(static_cast<uint64_t>(i), 1);
    } else if (i >= 0 && i < 65536) {
      out_ += 'M';  // BININT2
      put_bytes(static_cast<uint64_t>(i), 2);
    } else if (i >= INT32_MIN && i <= INT32_MAX) {
      out_ += 'J';  // BININT
      put_bytes(static_cast<uint32_t>(static_cast<int32_t>(i)), 4);
    } else {
      out_ += "\x8a\x08";  // LONG1, 8 bytes of two's complement
      put_bytes(static_cast<uint64_t>(i), 8);
    }
  }
  void put_string(const std::string& s) {
    out_ += 'X';  // BINUNICODE
    put_bytes(s.size(), 4);
    out_ += s;
  }
  void put_global(const char* module, const char* name) {
    out_ += 'c';
    out_ += module;
    out_ += '\n';
    out_ += name;
    out_ += '\n';
  }
  void put_int_tuple(IntArrayRef values) {
    out_ += '(';
    for (int64_t v : values) put_int(v);
    out_ += 't';
  }
  void put_tuple(const std::vector<IValue>& elements) {
    if (elements.empty()) {
      out_ += ')';
      return;
    }
    if (elements.size() > 3) out_ += '(';
    for (const IValue& e : elements) put(e);
    static constexpr char kTupleN[] = {'\x85', '\x86', '\x87'};
    out_ += elements.size() > 3 ? 't' : kTupleN[elements.size() - 1];
  }
  template <class Seq>
  void put_list(const Seq& values) {
    out_ += ']';  // EMPTY_LIST
    if (values.empty()) return;
    out_ += '(';
    for (const auto& v : values) put(IValue(v));
    out_ += 'e';  // APPENDS
  }

  // torch._utils._rebuild_tensor_v2(storage, offset, size, stride, requires_grad, OrderedDict())
  void put_tensor(const Tensor& t) {
    put_global("torch._utils", "_rebuild_tensor_v2");
    out_ += '(';
    put_storage(t);
    put_int(t.storage_offset());
    put_int_tuple(t.sizes());
    put_int_tuple(t.strides());
    out_ += t.requires_grad() ? '\x88' : '\x89';
    put_global("collections", "OrderedDict");
    out_ += ")R";  // OrderedDict(): no backward hooks
    out_ += "tR";
  }

  // ('storage', torch.<Type>Storage, key, location, numel) as a persistent id.
  void put_storage(const Tensor& t) {
    const detail::StorageImpl* storage = detail::impl_of(t)->storage.get();
    auto key = std::make_pair(storage, t.scalar_type());
    auto found = keys_.find(key);
    size_t index;
    if (found != keys_.end()) {
      index = found->second;
    } else {
      index = storages_.size();
      keys_.emplace(key, index);
      auto numel = static_cast<int64_t>(storage->nbytes / elementSize(t.scalar_type()));
      storages_.push_back(t.as_strided({numel}, {1}, 0).detach().cpu());
    }
    out_ += '(';
    put_string("storage");
    put_global("torch", storage_type(t.scalar_type()));
    put_string(std::to_string(index));
    put_string(t.device().is_cpu() ? "cpu" : t.device().str());
    put_int(storages_[index].numel());
    out_ += "tQ";  // TUPLE, BINPERSID
  }

  std::vector<Tensor>& storages_;
  std::map<std::pair<const detail::StorageImpl*, ScalarType>, size_t> keys_;
  std::string out_;
};

}  // namespace

std::string pickle(const IValue& value, std::vector<Tensor>& storages) {
  return Pickler(storages).run(value);
}

}  // namespace ember::io
