// FileStore: every operation opens the file, takes flock() (shared to read, exclusive to write),
// replays the records appended since its last look, and appends its own. A record is the key and
// then the value, each a native uint32 length and its bytes, as PyTorch writes them.
#include "ember/distributed/file_store.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <limits>
#include <system_error>
#include <thread>

#include "distributed/store_util.h"
#include "ember/error.h"
#include "ember/string_util.h"

namespace ember::distributed {

namespace {

std::string os_error(int errnum) { return std::system_category().message(errnum); }

// Polling, as PyTorch does: inotify misses writes made on other machines of a network filesystem.
constexpr std::chrono::milliseconds kPollInterval(10);

void append_field(std::vector<uint8_t>& record, const void* data, size_t size, const char* op) {
  if (size > std::numeric_limits<uint32_t>::max())
    throw Error(str("[", op, "] a key or value of ", size,
                    " bytes does not fit the file's 32-bit lengths"));
  auto length = static_cast<uint32_t>(size);
  const auto* length_bytes = reinterpret_cast<const uint8_t*>(&length);
  record.insert(record.end(), length_bytes, length_bytes + sizeof(length));
  const auto* bytes = static_cast<const uint8_t*>(data);
  record.insert(record.end(), bytes, bytes + size);
}

std::vector<uint8_t> make_record(const std::string& key, const std::vector<uint8_t>& value,
                                 const char* op) {
  std::vector<uint8_t> record;
  append_field(record, key.data(), key.size(), op);
  append_field(record, value.data(), value.size(), op);
  return record;
}

}  // namespace

// One opening of the file for one operation, its flock held until destruction. Opened anew each
// time, as in PyTorch: a flock belongs to the open file description, so each operation's lock
// excludes every other FileStore's, whether in this process or another.
class FileStore::LockedFile {
 public:
  LockedFile(const std::string& path, bool exclusive, const char* op) : path_(path), op_(op) {
    do fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    while (fd_ < 0 && errno == EINTR);
    if (fd_ < 0)
      throw Error(str("[", op, "] cannot open the store file '", path, "': ", os_error(errno),
                      " (its directory must exist and be writable by every rank)"));
    int rc = 0;
    do rc = ::flock(fd_, exclusive ? LOCK_EX : LOCK_SH);
    while (rc != 0 && errno == EINTR);
    if (rc != 0) {
      int err = errno;
      ::close(fd_);  // the destructor of an object not yet constructed will not
      fail("cannot lock", os_error(err));
    }
  }
  ~LockedFile() { ::close(fd_); }  // which releases the lock
  LockedFile(const LockedFile&) = delete;
  LockedFile& operator=(const LockedFile&) = delete;

  const char* op() const { return op_; }

  int64_t size() {
    off_t end = ::lseek(fd_, 0, SEEK_END);
    if (end < 0) fail("cannot find the end of", os_error(errno));
    return end;
  }

  std::vector<uint8_t> read(int64_t from, int64_t to) {
    std::vector<uint8_t> bytes(static_cast<size_t>(to - from));
    size_t done = 0;
    while (done < bytes.size()) {
      ssize_t got =
          ::pread(fd_, bytes.data() + done, bytes.size() - done, from + static_cast<off_t>(done));
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) fail("cannot read", os_error(errno));
      if (got == 0) fail("cannot read", "it became shorter while locked");
      done += static_cast<size_t>(got);
    }
    return bytes;
  }

  void append(const std::vector<uint8_t>& record) {
    int64_t at = size();
    size_t done = 0;
    while (done < record.size()) {
      ssize_t wrote =
          ::pwrite(fd_, record.data() + done, record.size() - done, at + static_cast<off_t>(done));
      if (wrote < 0 && errno == EINTR) continue;
      if (wrote < 0) fail("cannot write", os_error(errno));
      done += static_cast<size_t>(wrote);
    }
  }

  [[noreturn]] void fail(const char* what, const std::string& why) {
    throw Error(str("[", op_, "] ", what, " the store file '", path_, "': ", why));
  }

 private:
  const std::string& path_;
  const char* op_;
  int fd_ = -1;
};

FileStore::FileStore(const std::string& path, int numWorkers)
    : path_(path), numWorkers_(numWorkers) {
  // Opening it now reports a path that cannot be used here, not at the first operation.
  LockedFile file(path_, /*exclusive=*/false, "FileStore");
}

FileStore::~FileStore() {
  // Another rank may have removed the file already, or a test its directory.
  if (::access(path_.c_str(), F_OK) != 0) return;
  try {
    if (addHelper("FileStore", cleanupKey_, 1) == numWorkers_) ::unlink(path_.c_str());
  } catch (const Error&) {
    // A destructor cannot throw; the file stays, as after a rank that crashed.
  }
}

std::string FileStore::where() const { return str("in file '", path_, "'"); }

void FileStore::replay(LockedFile& file) {
  int64_t end = file.size();
  if (end == pos_) return;
  if (end < pos_) {
    // The file was removed and created again: what this store saw of the old one is gone.
    cache_.clear();
    pos_ = 0;
  }
  std::vector<uint8_t> bytes = file.read(pos_, end);
  size_t at = 0;
  auto read_field = [&](std::vector<uint8_t>& field) {
    uint32_t length = 0;
    if (bytes.size() - at < sizeof(length)) return false;
    std::memcpy(&length, bytes.data() + at, sizeof(length));
    if (bytes.size() - at - sizeof(length) < length) return false;
    field.assign(bytes.begin() + static_cast<std::ptrdiff_t>(at + sizeof(length)),
                 bytes.begin() + static_cast<std::ptrdiff_t>(at + sizeof(length) + length));
    at += sizeof(length) + length;
    return true;
  };
  std::vector<uint8_t> key, value;
  while (at < bytes.size()) {
    size_t record_start = at;
    if (!read_field(key) || !read_field(value))
      throw Error(str("[", file.op(), "] the store file '", path_,
                      "' ends inside a record at byte ", pos_ + static_cast<int64_t>(record_start),
                      " (a rank died while writing it, or another program wrote to the file)"));
    std::string name(key.begin(), key.end());
    if (name.compare(0, deletePrefix_.size(), deletePrefix_) == 0)
      cache_.erase(name.substr(deletePrefix_.size()));
    else cache_[name] = std::move(value);
  }
  pos_ = end;
}

void FileStore::set(const std::string& key, const std::vector<uint8_t>& value) {
  std::lock_guard<std::mutex> lock(mutex_);
  LockedFile file(path_, /*exclusive=*/true, "FileStore.set");
  file.append(make_record(regularPrefix_ + key, value, file.op()));
}

std::vector<uint8_t> FileStore::compareSet(const std::string& key,
                                           const std::vector<uint8_t>& expectedValue,
                                           const std::vector<uint8_t>& desiredValue) {
  std::lock_guard<std::mutex> lock(mutex_);
  LockedFile file(path_, /*exclusive=*/true, "FileStore.compareSet");
  replay(file);
  auto it = cache_.find(regularPrefix_ + key);
  // As HashStore::compareSet: an absent key holds the empty value.
  if (it == cache_.end() ? expectedValue.empty() : it->second == expectedValue) {
    file.append(make_record(regularPrefix_ + key, desiredValue, file.op()));
    return desiredValue;
  }
  return it == cache_.end() ? expectedValue : it->second;
}

std::vector<uint8_t> FileStore::get(const std::string& key) {
  detail::Deadline deadline = detail::deadline_after(timeout_);
  while (true) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      LockedFile file(path_, /*exclusive=*/false, "FileStore.get");
      replay(file);
      auto it = cache_.find(regularPrefix_ + key);
      if (it != cache_.end()) return it->second;
    }
    if (detail::has_passed(deadline))
      detail::throw_wait_timeout("FileStore.get", timeout_, {key}, where());
    std::this_thread::sleep_for(kPollInterval);
  }
}

int64_t FileStore::addHelper(const std::string& op, const std::string& fileKey, int64_t value) {
  std::lock_guard<std::mutex> lock(mutex_);
  LockedFile file(path_, /*exclusive=*/true, op.c_str());
  replay(file);
  // Users see their own key in messages, not the file's "/key".
  std::string shown = fileKey.substr(fileKey.compare(0, 1, regularPrefix_) == 0 ? 1 : 0);
  auto it = cache_.find(fileKey);
  int64_t counter = it == cache_.end() ? 0 : detail::parse_counter(op, shown, it->second);
  int64_t sum = detail::add_to_counter(op, shown, counter, value);
  file.append(make_record(fileKey, detail::counter_bytes(sum), file.op()));
  return sum;
}

int64_t FileStore::add(const std::string& key, int64_t value) {
  return addHelper("FileStore.add", regularPrefix_ + key, value);
}

int64_t FileStore::getNumKeys() {
  std::lock_guard<std::mutex> lock(mutex_);
  LockedFile file(path_, /*exclusive=*/false, "FileStore.getNumKeys");
  replay(file);
  int64_t count = 0;
  for (const auto& entry : cache_)
    if (entry.first.compare(0, regularPrefix_.size(), regularPrefix_) == 0) ++count;
  return count;
}

bool FileStore::deleteKey(const std::string& key) {
  std::lock_guard<std::mutex> lock(mutex_);
  LockedFile file(path_, /*exclusive=*/true, "FileStore.deleteKey");
  replay(file);
  if (cache_.count(regularPrefix_ + key) == 0) return false;
  file.append(make_record(deletePrefix_ + regularPrefix_ + key, {}, file.op()));
  return true;
}

std::vector<std::string> FileStore::missing_locked(const std::vector<std::string>& keys) {
  std::vector<std::string> missing;
  for (const std::string& key : keys)
    if (cache_.count(regularPrefix_ + key) == 0) missing.push_back(key);
  return missing;
}

bool FileStore::check(const std::vector<std::string>& keys) {
  std::lock_guard<std::mutex> lock(mutex_);
  LockedFile file(path_, /*exclusive=*/false, "FileStore.check");
  replay(file);
  return missing_locked(keys).empty();
}

void FileStore::wait(const std::vector<std::string>& keys) { wait(keys, timeout_); }

void FileStore::wait(const std::vector<std::string>& keys,
                     const std::chrono::milliseconds& timeout) {
  detail::Deadline deadline = detail::deadline_after(timeout);
  while (true) {
    std::vector<std::string> missing;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      LockedFile file(path_, /*exclusive=*/false, "FileStore.wait");
      replay(file);
      missing = missing_locked(keys);
    }
    if (missing.empty()) return;
    if (detail::has_passed(deadline))
      detail::throw_wait_timeout("FileStore.wait", timeout, missing, where());
    std::this_thread::sleep_for(kPollInterval);
  }
}

}  // namespace ember::distributed
