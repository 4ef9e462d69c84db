// HashStore: a Store in this process's memory (LibTorch's c10d::HashStore), shared by threads that
// stand in for ranks.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "ember/distributed/store.h"
#include "ember/macros.h"

namespace ember::distributed {

class EMBER_API HashStore : public Store {
 public:
  ~HashStore() override;

  void set(const std::string& key, const std::vector<uint8_t>& data) override;
  std::vector<uint8_t> compareSet(const std::string& key, const std::vector<uint8_t>& expectedValue,
                                  const std::vector<uint8_t>& desiredValue) override;
  std::vector<uint8_t> get(const std::string& key) override;
  // Waits up to getTimeout() (LibTorch's HashStore waits kDefaultTimeout whatever it was set to).
  void wait(const std::vector<std::string>& keys) override;
  void wait(const std::vector<std::string>& keys,
            const std::chrono::milliseconds& timeout) override;
  int64_t add(const std::string& key, int64_t value) override;
  int64_t getNumKeys() override;
  bool check(const std::vector<std::string>& keys) override;
  bool deleteKey(const std::string& key) override;

 private:
  // Waits for `keys` with `lock` held on mutex_; throws the timeout error of `op`.
  void wait_locked(std::unique_lock<std::mutex>& lock, const char* op,
                   const std::vector<std::string>& keys, std::chrono::milliseconds timeout);

  std::unordered_map<std::string, std::vector<uint8_t>> map_;
  std::mutex mutex_;
  std::condition_variable key_set_;
};

}  // namespace ember::distributed
