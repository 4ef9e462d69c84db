// Reading and writing torch.save's zip archives.
#include "io/pt_file.h"

#include <cstring>

#include "core/check.h"
#include "ember/cuda.h"
#include "ember/factory.h"
#include "io/bool_bytes.h"
#include "io/file.h"
#include "io/pickler.h"
#include "io/unpickler.h"

namespace ember::io {
namespace {

// The pickle record's directory: torch.save names it after the file (1.x) or "archive"; LibTorch
// takes whatever the archive's records share, and so does ember.
std::string archive_prefix(const ZipReader& archive) {
  for (const std::string& record : archive.names()) {
    size_t slash = record.find('/');
    if (slash != std::string::npos && record.compare(slash, std::string::npos, "/data.pkl") == 0)
      return record.substr(0, slash + 1);
  }
  detail::fail<ValueError>(archive.op(), archive.name(),
                           ": not a PyTorch file: the archive has no <name>/data.pkl record (",
                           archive.names().size(), " records)");
}

// Where a storage saved at `location` goes.
Device target_device(const std::string& location, std::optional<Device> map_location,
                     const ZipReader& archive) {
  if (map_location) return *map_location;
  Device saved = Device::cpu();
  try {
    saved = Device(location);
  } catch (const Error&) {
    detail::fail<ValueError>(archive.op(), archive.name(), ": a storage's location '", location,
                             "' is not a device");
  }
  if (saved.is_cuda()) {
    int index = saved.has_index() ? saved.index() : 0;
    EMBER_CHECK(cuda::is_available() && index < cuda::device_count(), archive.op(), archive.name(),
                ": the file puts tensors on ", saved.str(), " but this machine has ",
                cuda::device_count(),
                " CUDA device(s). To load them elsewhere, pass a device: "
                "torch::load(value, path, torch::kCPU) or InputArchive::load_from(path, device)");
  }
  return saved;
}

// Python's legacy format starts with a pickled magic number, protocol 2's LONG1
// 0x1950a86a20f9469cfc6c.
bool is_legacy_pickle(const unsigned char* bytes, size_t size) {
  static const unsigned char kStart[] = {0x80, 0x02, 0x8a, 0x0a, 0x6c,
                                         0xfc, 0x9c, 0x46, 0xf9, 0x20};
  return size >= sizeof(kStart) && std::memcmp(bytes, kStart, sizeof(kStart)) == 0;
}

[[noreturn]] void fail_not_zip(const unsigned char* bytes, size_t size, const std::string& name,
                               const char* op) {
  if (is_legacy_pickle(bytes, size))
    detail::fail<ValueError>(
        op, name,
        ": this is PyTorch's legacy (before 1.6) file format, which ember does not read. "
        "Convert it once with Python: python3 -c \"import torch; torch.save(torch.load('",
        name, "'), '", name, "')\"");
  detail::fail<ValueError>(op, name,
                           ": not a PyTorch file (torch.save writes a zip archive, and this does "
                           "not start with one)");
}

bool starts_like_zip(const unsigned char* bytes, size_t size) {
  return size >= 4 && bytes[0] == 'P' && bytes[1] == 'K' && bytes[2] == 3 && bytes[3] == 4;
}

}  // namespace

IValue read_pt(const ZipReader& archive, std::optional<Device> map_location) {
  std::string prefix = archive_prefix(archive);
  if (archive.contains(prefix + "byteorder")) {
    std::string order = archive.read(prefix + "byteorder");
    EMBER_CHECK_T(ValueError, order == "little", archive.op(), archive.name(), ": byte order '",
                  order, "'; ember reads little-endian files only");
  }
  std::string pickle = archive.read(prefix + "data.pkl");
  StorageLoader load = [&](const StorageRef& ref) {
    std::string record = prefix + "data/" + ref.key;
    EMBER_CHECK_T(ValueError, archive.contains(record), archive.op(), archive.name(), ": storage '",
                  ref.key, "' has no record ", record);
    uint64_t have = archive.size(record);
    uint64_t element = elementSize(ref.dtype);
    // The record is read whole into the storage, so it must be a whole number of elements.
    EMBER_CHECK_T(ValueError, have % element == 0, archive.op(), archive.name(), ": storage '",
                  ref.key, "' holds ", have, " bytes, not a whole number of ", element, "-byte ",
                  toString(ref.dtype), " elements");
    EMBER_CHECK_T(ValueError, have / element >= static_cast<uint64_t>(ref.numel), archive.op(),
                  archive.name(), ": storage '", ref.key, "' holds ", have,
                  " bytes, fewer than its ", ref.numel, " ", toString(ref.dtype), " elements need");
    Device device = target_device(ref.location, map_location, archive);
    Tensor storage = empty({static_cast<int64_t>(have / element)}, TensorOptions(ref.dtype));
    archive.read(record, storage.data_ptr());
    if (ref.dtype == kBool) normalize_bool_bytes(storage);
    storage = storage.narrow(0, 0, ref.numel);
    return device.is_cpu() ? storage : storage.to(device);
  };
  return unpickle(pickle, load, archive.name() + ": " + prefix + "data.pkl", archive.op());
}

IValue read_pt_file(const std::string& path, const char* op, std::optional<Device> map_location) {
  unsigned char start[16] = {};
  size_t got;
  {
    InputFile file(path, op);
    got = static_cast<size_t>(std::min<uint64_t>(file.size(), sizeof(start)));
    file.read_at(0, start, got);
  }
  if (!starts_like_zip(start, got)) fail_not_zip(start, got, path, op);
  return read_pt(ZipReader::from_file(path, op), map_location);
}

IValue read_pt_bytes(const void* bytes, size_t size, const std::string& name, const char* op,
                     std::optional<Device> map_location) {
  const auto* b = static_cast<const unsigned char*>(bytes);
  if (!starts_like_zip(b, size)) fail_not_zip(b, size, name, op);
  return read_pt(ZipReader::from_bytes(bytes, size, name, op), map_location);
}

std::vector<char> write_pt(const IValue& value, const char* op) {
  std::vector<Tensor> storages;
  std::string pickled = pickle(value, storages);
  ZipWriter zip(op);
  zip.add("archive/data.pkl", std::move(pickled));
  zip.add("archive/byteorder", std::string("little"));
  for (size_t i = 0; i < storages.size(); ++i)
    zip.add("archive/data/" + std::to_string(i), storages[i].data_ptr(), storages[i].nbytes());
  zip.add("archive/version", std::string("3\n"));
  return zip.finish();
}

}  // namespace ember::io
