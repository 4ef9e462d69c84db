// Optimizer options and states to and from archives, field by field: each struct lists its
// fields once, as `fields(object, visit)` calling visit("name", object.name()) for each, and
// these helpers run that list in either direction.
#pragma once

#include <tuple>

#include "core/check.h"
#include "ember/serialize.h"

namespace ember::optim::archive_fields {

inline IValue to_ivalue(double v) { return v; }
inline IValue to_ivalue(bool v) { return v; }
inline IValue to_ivalue(int64_t v) { return v; }
inline IValue to_ivalue(const Tensor& v) { return v; }
inline IValue to_ivalue(const std::tuple<double, double>& v) {
  return ivalue::Tuple::create({std::get<0>(v), std::get<1>(v)});
}

[[noreturn]] inline void fail_field(const char* key, const char* expected, const IValue& got) {
  ember::detail::fail<TypeError>("[optimizer load] '", key, "' should be ", expected,
                                 " but the archive holds a ", got.tagKind());
}
// Python writes 1 for lr=1 and tensor(5.) for Adam's step, so numbers convert as Python would.
inline void from_ivalue(const IValue& v, double& out, const char* key) {
  if (v.isDouble()) {
    out = v.toDouble();
  } else if (v.isInt()) {
    out = static_cast<double>(v.toInt());
  } else {
    fail_field(key, "a number", v);
  }
}
inline void from_ivalue(const IValue& v, bool& out, const char* key) {
  if (!v.isBool()) fail_field(key, "a bool", v);
  out = v.toBool();
}
inline void from_ivalue(const IValue& v, int64_t& out, const char* key) {
  if (v.isInt()) {
    out = v.toInt();
  } else if (v.isTensor() && v.toTensor().numel() == 1) {
    out = static_cast<int64_t>(v.toTensor().item<double>());
  } else {
    fail_field(key, "an int", v);
  }
}
inline void from_ivalue(const IValue& v, Tensor& out, const char* key) {
  if (!v.isTensor()) fail_field(key, "a tensor", v);
  out = v.toTensor();
}
inline void from_ivalue(const IValue& v, std::tuple<double, double>& out, const char* key) {
  if (!v.isTuple() || v.toTupleRef().size() != 2) fail_field(key, "a pair of numbers", v);
  from_ivalue(v.toTupleRef().elements()[0], std::get<0>(out), key);
  from_ivalue(v.toTupleRef().elements()[1], std::get<1>(out), key);
}

inline bool is_stored(const Tensor& t) { return t.defined(); }  // an unused buffer is left out
template <class T>
bool is_stored(const T&) {
  return true;
}

template <class Object, class Fields>
void write_fields(serialize::OutputArchive& archive, const Object& object, Fields fields) {
  fields(object, [&](const char* key, const auto& value) {
    if (is_stored(value)) archive.write(key, to_ivalue(value));
  });
}

template <class Object, class Fields>
void read_fields(serialize::InputArchive& archive, Object& object, Fields fields) {
  fields(object, [&](const char* key, auto& value) {
    IValue stored;
    if (archive.try_read(key, stored)) from_ivalue(stored, value, key);
  });
}

}  // namespace ember::optim::archive_fields

// The two serialize() overrides of `Type`, from its fields function.
#define EMBER_OPTIM_SERIALIZE(Type, fields)                                                       \
  void Type::serialize(serialize::OutputArchive& archive) const {                                 \
    archive_fields::write_fields(archive, *this,                                                  \
                                 [](const Type& o, auto&& visit) { fields(o, visit); });          \
  }                                                                                               \
  void Type::serialize(serialize::InputArchive& archive) {                                        \
    archive_fields::read_fields(archive, *this, [](Type& o, auto&& visit) { fields(o, visit); }); \
  }
