// The restricted unpickler: a stack machine over the opcodes plain data uses, with every read
// bounds-checked and every global looked up in a short list of known ones.
#include "io/unpickler.h"

#include <bit>
#include <cstring>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

#include "core/check.h"
#include "ember/string_util.h"
#include "io/storage_types.h"

namespace ember::io {
namespace {

// The globals a state dict or a checkpoint pickles, and nothing else.
enum class Global { kOrderedDict, kRebuildTensorV2, kRebuildParameter, kTorchSize, kStorage };

struct GlobalRef {
  Global kind;
  ScalarType dtype = kFloat;  // of a storage type
  std::string name;           // "torch.FloatStorage", for messages
};

std::optional<GlobalRef> find_global(const std::string& module, const std::string& name) {
  std::optional<Global> kind;
  ScalarType dtype = kFloat;
  if (module == "collections" && name == "OrderedDict") kind = Global::kOrderedDict;
  if (module == "torch._utils" && name == "_rebuild_tensor_v2") kind = Global::kRebuildTensorV2;
  if (module == "torch._utils" && name == "_rebuild_parameter") kind = Global::kRebuildParameter;
  if (module == "torch" && name == "Size") kind = Global::kTorchSize;
  if (module == "torch") {
    if (std::optional<ScalarType> storage = storage_dtype(name)) {
      kind = Global::kStorage;
      dtype = *storage;
    }
  }
  if (!kind) return std::nullopt;
  return GlobalRef{*kind, dtype, module + "." + name};
}

// Note [Plain, acyclic data]
// Opcodes change only the container on top of the stack. A container is sealed once it is used
// as a value (put into another container, a tuple or a call), and a sealed container cannot be
// changed: so no container ever comes to hold itself, which only a recursive Python structure
// would need and which would leak (IValue containers are reference-counted). Nesting deeper than
// kMaxDepth is refused too, so that nothing recurses deeply when the result is destroyed.
constexpr int kMaxDepth = 200;

struct Item {
  IValue value;                                    // a value (a dict or list: shared)
  std::shared_ptr<const std::vector<Item>> tuple;  // a tuple's items, globals included
  std::optional<GlobalRef> global;                 // a global: only calls and ids may use it
  std::shared_ptr<bool> sealed;                    // of a dict or list
  bool storage = false;                            // a storage from a persistent id
  int depth = 0;
};

class Unpickler {
 public:
  Unpickler(std::string_view bytes, const StorageLoader& load_storage, const std::string& name,
            const char* op)
      : bytes_(bytes), load_storage_(load_storage), name_(name), op_(op) {}

  IValue run() {
    while (true) {
      opcode_at_ = pos_;
      auto opcode = static_cast<unsigned char>(read(1)[0]);
      if (opcode == '.') {  // STOP
        if (stack_.size() != 1) fail("STOP with ", stack_.size(), " values on the stack, not 1");
        return value_of(stack_.back(), "the pickled object");
      }
      step(opcode);
    }
  }

 private:
  template <class... Args>
  [[noreturn]] void fail(const Args&... args) const {
    detail::fail<ValueError>(op_, name_, ": byte ", opcode_at_, ": ", args...);
  }

  std::string_view read(size_t n) {
    if (n > bytes_.size() - pos_)
      fail("the pickle ends early (", n, " bytes needed, ", bytes_.size() - pos_, " left)");
    std::string_view out = bytes_.substr(pos_, n);
    pos_ += n;
    return out;
  }
  uint64_t read_uint(size_t n) {  // little-endian
    std::string_view b = read(n);
    uint64_t v = 0;
    for (size_t i = n; i-- > 0;) v = (v << 8) | static_cast<unsigned char>(b[i]);
    return v;
  }
  std::string read_line() {
    size_t end = bytes_.find('\n', pos_);
    if (end == std::string_view::npos) fail("the pickle ends inside a GLOBAL name");
    std::string line(bytes_.substr(pos_, end - pos_));
    pos_ = end + 1;
    return line;
  }
  size_t checked_length(uint64_t n) {
    if (n > bytes_.size() - pos_) fail("a length of ", n, " runs past the end of the pickle");
    return static_cast<size_t>(n);
  }

  Item pop() {
    if (stack_.size() <= marks_floor()) fail("the stack is empty");
    Item item = std::move(stack_.back());
    stack_.pop_back();
    return item;
  }
  Item& top() {
    if (stack_.size() <= marks_floor()) fail("the stack is empty");
    return stack_.back();
  }
  size_t marks_floor() const { return marks_.empty() ? 0 : marks_.back(); }
  std::vector<Item> pop_to_mark() {
    if (marks_.empty()) fail("no MARK to pop to");
    size_t mark = marks_.back();
    marks_.pop_back();
    std::vector<Item> items(std::make_move_iterator(stack_.begin() + static_cast<ptrdiff_t>(mark)),
                            std::make_move_iterator(stack_.end()));
    stack_.resize(mark);
    return items;
  }
  void push(Item item) {
    if (item.depth > kMaxDepth) fail("values nest deeper than ", kMaxDepth, " levels");
    stack_.push_back(std::move(item));
  }

  // The item as a value of a container or a call: seals it (Note [Plain, acyclic data]).
  IValue value_of(const Item& item, const char* role) {
    if (item.global) fail(item.global->name, " used as ", role, "; a global is only called");
    if (item.sealed) *item.sealed = true;
    if (item.tuple && item.value.isNone()) fail("a tuple holding a global used as ", role);
    return item.value;
  }
  Item container(IValue value) {
    Item item;
    item.value = std::move(value);
    item.sealed = std::make_shared<bool>(false);
    return item;
  }
  Item& open_container(const char* opcode) {
    Item& target = top();
    if (target.sealed && *target.sealed)
      fail(opcode, " changes a container after using it; ember reads only acyclic data");
    return target;
  }
  Item make_tuple(std::vector<Item> items) {
    Item t;
    bool plain = true;
    std::vector<IValue> values;
    for (Item& item : items) {
      t.depth = std::max(t.depth, item.depth + 1);
      if (item.global || (item.tuple && item.value.isNone())) {
        plain = false;
      } else {
        values.push_back(value_of(item, "a tuple element"));
      }
    }
    if (plain) t.value = ivalue::Tuple::create(std::move(values));
    t.tuple = std::make_shared<const std::vector<Item>>(std::move(items));
    return t;
  }
  Item memo_get(uint64_t index) {
    auto found = memo_.find(index);
    if (found == memo_.end()) fail("memo entry ", index, " was never stored");
    return found->second;
  }
  void memo_put(uint64_t index) { memo_[index] = top(); }

  void step(unsigned char opcode) {
    switch (opcode) {
      case 0x80: {  // PROTO
        auto version = static_cast<unsigned char>(read(1)[0]);
        if (version > 5) fail("pickle protocol ", int(version), " is newer than any known");
        return;
      }
      case 0x95: read(8); return;  // FRAME: a length hint
      case '(': marks_.push_back(stack_.size()); return;
      case '}': push(container(Dict<IValue, IValue>())); return;
      case ']': push(container(List<IValue>())); return;
      case ')': push(make_tuple({})); return;
      case 't': push(make_tuple(pop_to_mark())); return;
      case 0x85:
      case 0x86:
      case 0x87: {  // TUPLE1..3
        size_t n = opcode - 0x84u;
        if (stack_.size() < marks_floor() + n) fail("TUPLE", n, " needs ", n, " values");
        std::vector<Item> items(std::make_move_iterator(stack_.end() - static_cast<ptrdiff_t>(n)),
                                std::make_move_iterator(stack_.end()));
        stack_.resize(stack_.size() - n);
        push(make_tuple(std::move(items)));
        return;
      }
      case 'q': memo_put(read_uint(1)); return;        // BINPUT
      case 'r': memo_put(read_uint(4)); return;        // LONG_BINPUT
      case 0x94: memo_put(memo_.size()); return;       // MEMOIZE
      case 'h': push(memo_get(read_uint(1))); return;  // BINGET
      case 'j': push(memo_get(read_uint(4))); return;  // LONG_BINGET
      case 'J': push(plain(static_cast<int64_t>(static_cast<int32_t>(read_uint(4))))); return;
      case 'K': push(plain(static_cast<int64_t>(read_uint(1)))); return;
      case 'M': push(plain(static_cast<int64_t>(read_uint(2)))); return;
      case 0x8a: push(plain(read_long(read_uint(1)))); return;  // LONG1
      case 0x8b: push(plain(read_long(read_uint(4)))); return;  // LONG4
      case 'G': push(plain(std::bit_cast<double>(__builtin_bswap64(read_uint(8))))); return;
      case 0x88: push(plain(true)); return;
      case 0x89: push(plain(false)); return;
      case 'N': push(plain(IValue())); return;
      case 'X': push(plain(std::string(read(checked_length(read_uint(4)))))); return;
      case 0x8c: push(plain(std::string(read(read_uint(1))))); return;
      case 0x8d: push(plain(std::string(read(checked_length(read_uint(8)))))); return;
      case 'c': {  // GLOBAL
        std::string module = read_line();
        std::string name = read_line();
        push_global(module, name);
        return;
      }
      case 0x93: {  // STACK_GLOBAL
        IValue name = value_of(pop(), "a global's name");
        IValue module = value_of(pop(), "a global's module");
        if (!name.isString() || !module.isString()) fail("STACK_GLOBAL needs two strings");
        push_global(module.toStringRef(), name.toStringRef());
        return;
      }
      case 'R': {  // REDUCE
        Item args = pop();
        Item callable = pop();
        if (!callable.global) fail("REDUCE calls something that is not a known global");
        if (!args.tuple) fail("REDUCE's arguments are not a tuple");
        push(call(*callable.global, *args.tuple));
        return;
      }
      case 'b': {  // BUILD: only an OrderedDict's attributes (a state dict's _metadata)
        Item state = pop();
        Item& target = top();
        if (!target.value.isGenericDict())
          fail("BUILD sets the state of something other than an OrderedDict");
        value_of(state, "an OrderedDict's attributes");  // checked, then dropped
        return;
      }
      case 'Q': push(persistent(pop())); return;  // BINPERSID
      case 's': {                                 // SETITEM
        Item value = pop();
        Item key = pop();
        set_items({std::move(key), std::move(value)}, "SETITEM");
        return;
      }
      case 'u': set_items(pop_to_mark(), "SETITEMS"); return;
      case 'a': {  // APPEND
        std::vector<Item> one;
        one.push_back(pop());
        append(std::move(one), "APPEND");
        return;
      }
      case 'e': append(pop_to_mark(), "APPENDS"); return;
      default:
        fail("opcode 0x", hex(opcode),
             " is not one ember reads (it reads the data pickles of torch.save: tensors, "
             "dicts, lists, tuples, strings and numbers)");
    }
  }

  static std::string hex(unsigned char c) {
    const char* digits = "0123456789abcdef";
    return {digits[c >> 4], digits[c & 15]};
  }
  static Item plain(IValue v) {
    Item item;
    item.value = std::move(v);
    return item;
  }
  int64_t read_long(uint64_t n) {
    if (n > 8) fail("an integer of ", n, " bytes does not fit in 64 bits");
    uint64_t v = read_uint(static_cast<size_t>(n));
    if (n > 0 && n < 8 && (v >> (8 * n - 1)) != 0) v |= ~uint64_t{0} << (8 * n);  // sign
    return static_cast<int64_t>(v);
  }

  void push_global(const std::string& module, const std::string& name) {
    std::optional<GlobalRef> global = find_global(module, name);
    if (!global)
      fail("the global '", module, ".", name,
           "' is not allowed: ember loads tensors, OrderedDicts, torch.Size and storages only "
           "(as torch.load(weights_only=True)), and never runs code from a file");
    Item item;
    item.global = std::move(global);
    push(std::move(item));
  }

  void set_items(std::vector<Item> items, const char* opcode) {
    if (items.size() % 2 != 0) fail(opcode, " with an odd number of values");
    Item& target = open_container(opcode);
    if (!target.value.isGenericDict()) fail(opcode, " on something that is not a dict");
    Dict<IValue, IValue> dict = target.value.toGenericDict();
    for (size_t i = 0; i < items.size(); i += 2) {
      target.depth = std::max(target.depth, items[i + 1].depth + 1);
      IValue key = value_of(items[i], "a dict key");
      if (!key.isString() && !key.isInt() && !key.isDouble() && !key.isBool() && !key.isNone())
        fail("a dict key of kind ", key.tagKind(), "; keys are strings or numbers");
      dict.insert_or_assign(std::move(key), value_of(items[i + 1], "a dict value"));
    }
    if (target.depth > kMaxDepth) fail("values nest deeper than ", kMaxDepth, " levels");
  }

  void append(std::vector<Item> items, const char* opcode) {
    Item& target = open_container(opcode);
    if (!target.value.isList()) fail(opcode, " on something that is not a list");
    const List<IValue>& list = target.value.toList();  // shares the stack's list
    for (Item& item : items) {
      target.depth = std::max(target.depth, item.depth + 1);
      list.push_back(value_of(item, "a list element"));
    }
    if (target.depth > kMaxDepth) fail("values nest deeper than ", kMaxDepth, " levels");
  }

  Item call(const GlobalRef& global, const std::vector<Item>& args) {
    switch (global.kind) {
      case Global::kOrderedDict:
        if (!args.empty()) fail("OrderedDict is called with arguments");
        return container(Dict<IValue, IValue>());
      case Global::kTorchSize: {
        if (args.size() != 1 || !args[0].tuple) fail("torch.Size is called without a tuple");
        return plain(value_of(args[0], "torch.Size's argument"));
      }
      case Global::kRebuildTensorV2: return plain(rebuild_tensor(args));
      case Global::kRebuildParameter: {
        // _rebuild_parameter(data, requires_grad, backward_hooks)
        if (args.size() != 3) fail("_rebuild_parameter takes 3 arguments, not ", args.size());
        IValue data = value_of(args[0], "a parameter's data");
        if (!data.isTensor()) fail("_rebuild_parameter's data is not a tensor");
        return plain(with_requires_grad(data.toTensor(), bool_arg(args[1], "requires_grad")));
      }
      case Global::kStorage: fail(global.name, " is called; a storage comes from a persistent id");
    }
    fail("unknown global");
  }

  bool bool_arg(const Item& item, const char* what) {
    IValue v = value_of(item, what);
    if (!v.isBool()) fail(what, " is a ", v.tagKind(), ", not a bool");
    return v.toBool();
  }
  std::vector<int64_t> ints_arg(const Item& item, const char* what) {
    IValue v = value_of(item, what);
    if (!v.isTuple()) fail(what, " is a ", v.tagKind(), ", not a tuple of ints");
    std::vector<int64_t> out;
    for (const IValue& e : v.toTupleRef().elements()) {
      if (!e.isInt()) fail(what, " holds a ", e.tagKind(), ", not an int");
      out.push_back(e.toInt());
    }
    return out;
  }

  static Tensor with_requires_grad(const Tensor& t, bool requires_grad) {
    if (!requires_grad) return t;
    Tensor leaf = t.detach();
    leaf.requires_grad_(true);
    return leaf;
  }

  // _rebuild_tensor_v2(storage, storage_offset, size, stride, requires_grad, backward_hooks
  // [, metadata]): a view of the storage, checked to lie inside it.
  Tensor rebuild_tensor(const std::vector<Item>& args) {
    if (args.size() != 6 && args.size() != 7)
      fail("_rebuild_tensor_v2 takes 6 or 7 arguments, not ", args.size());
    if (!args[0].storage) fail("_rebuild_tensor_v2's first argument is not a storage");
    Tensor storage = args[0].value.toTensor();
    IValue offset = value_of(args[1], "the storage offset");
    if (!offset.isInt()) fail("the storage offset is a ", offset.tagKind(), ", not an int");
    std::vector<int64_t> size = ints_arg(args[2], "the size");
    std::vector<int64_t> stride = ints_arg(args[3], "the stride");
    bool requires_grad = bool_arg(args[4], "requires_grad");
    if (size.size() != stride.size())
      fail("size ", size, " and stride ", stride, " have different lengths");
    // The furthest element, computed without overflow, must lie inside the storage.
    int64_t numel = storage.numel();
    if (offset.toInt() < 0 || offset.toInt() > numel)
      fail("storage offset ", offset.toInt(), " is outside a storage of ", numel, " elements");
    int64_t last = offset.toInt();
    bool empty = false;
    for (size_t d = 0; d < size.size(); ++d) {
      if (size[d] < 0 || stride[d] < 0) fail("size ", size, " or stride ", stride, " is negative");
      if (size[d] == 0) empty = true;
    }
    for (size_t d = 0; d < size.size() && !empty; ++d) {
      if (size[d] > 1 && stride[d] > (numel - last) / (size[d] - 1))
        fail("a tensor of size ", size, ", stride ", stride, " and offset ", offset.toInt(),
             " reaches past its storage of ", numel, " elements");
      last += (size[d] - 1) * stride[d];
    }
    if (!empty && last >= numel)
      fail("a tensor of size ", size, " at offset ", offset.toInt(),
           " reaches past its storage of ", numel, " elements");
    return with_requires_grad(storage.as_strided(size, stride, offset.toInt()), requires_grad);
  }

  // ('storage', torch.<Type>Storage, key, location, numel)
  Item persistent(const Item& pid) {
    const std::vector<Item>* parts = pid.tuple.get();
    if (parts == nullptr || parts->size() != 5)
      fail("a persistent id that is not ('storage', type, key, location, numel)");
    const std::vector<Item>& p = *parts;
    IValue tag = value_of(p[0], "a persistent id's tag");
    if (!tag.isString() || tag.toStringRef() != "storage")
      fail("a persistent id that is not a storage");
    if (!p[1].global || p[1].global->kind != Global::kStorage)
      fail("a storage whose type is not a torch.<Type>Storage");
    IValue key = value_of(p[2], "a storage key");
    IValue location = value_of(p[3], "a storage location");
    IValue numel = value_of(p[4], "a storage size");
    if (!key.isString() || !location.isString() || !numel.isInt() || numel.toInt() < 0)
      fail("a storage id needs a string key, a string location and a size >= 0");
    Item out;
    out.storage = true;
    auto found = storages_.find(key.toStringRef());
    if (found != storages_.end()) {
      if (found->second.scalar_type() != p[1].global->dtype ||
          found->second.numel() != numel.toInt())
        fail("storage '", key.toStringRef(), "' is named with two types or sizes");
      out.value = found->second;
      return out;
    }
    Tensor storage = load_storage_(
        {key.toStringRef(), p[1].global->dtype, location.toStringRef(), numel.toInt()});
    storages_.emplace(key.toStringRef(), storage);
    out.value = std::move(storage);
    return out;
  }

  std::string_view bytes_;
  size_t pos_ = 0;
  size_t opcode_at_ = 0;
  const StorageLoader& load_storage_;
  const std::string& name_;
  const char* op_;
  std::vector<Item> stack_;
  std::vector<size_t> marks_;
  std::unordered_map<uint64_t, Item> memo_;
  std::unordered_map<std::string, Tensor> storages_;
};

}  // namespace

IValue unpickle(std::string_view bytes, const StorageLoader& load_storage, const std::string& name,
                const char* op) {
  return Unpickler(bytes, load_storage, name, op).run();
}

}  // namespace ember::io
