// FileStore: a Store kept in a file that every rank can reach (LibTorch's c10d::FileStore; the
// file:// init method), whether the ranks are processes on one machine or on a shared filesystem.
#pragma once

#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "ember/distributed/store.h"
#include "ember/macros.h"

namespace ember::distributed {

// The file is an append-only log of (key, value) records in PyTorch's format, locked with flock()
// while it is read or written; each FileStore replays what the others appended. The last of
// `numWorkers` FileStores to be destroyed removes the file (none does when numWorkers is -1).
class EMBER_API FileStore : public Store {
 public:
  // Throws an Error naming the path and the OS's reason when the file cannot be opened or created.
  explicit FileStore(const std::string& path, int numWorkers);
  ~FileStore() override;

  void set(const std::string& key, const std::vector<uint8_t>& value) override;
  std::vector<uint8_t> compareSet(const std::string& key, const std::vector<uint8_t>& expectedValue,
                                  const std::vector<uint8_t>& desiredValue) override;
  std::vector<uint8_t> get(const std::string& key) override;
  int64_t add(const std::string& key, int64_t value) override;
  int64_t getNumKeys() override;
  // Returns whether the key was there (LibTorch's FileStore returns true either way).
  bool deleteKey(const std::string& key) override;
  bool check(const std::vector<std::string>& keys) override;
  void wait(const std::vector<std::string>& keys) override;
  void wait(const std::vector<std::string>& keys,
            const std::chrono::milliseconds& timeout) override;

  const std::string& getPath() const noexcept { return path_; }

 private:
  class LockedFile;

  // Reads the records appended since the last replay into cache_.
  void replay(LockedFile& file);
  // The keys of `keys` that are not in the file; mutex_ held.
  std::vector<std::string> missing_locked(const std::vector<std::string>& keys);
  int64_t addHelper(const std::string& op, const std::string& fileKey, int64_t value);
  std::string where() const;

  std::string path_;
  int64_t pos_ = 0;  // how far this store has replayed the file
  int numWorkers_;
  const std::string cleanupKey_ = "cleanup/";
  // Users' keys are stored as "/key" and deletions as "-/key", apart from cleanupKey_.
  const std::string regularPrefix_ = "/";
  const std::string deletePrefix_ = "-";
  std::unordered_map<std::string, std::vector<uint8_t>> cache_;
  std::mutex mutex_;
};

}  // namespace ember::distributed
