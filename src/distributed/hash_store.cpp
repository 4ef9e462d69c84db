// HashStore: one map under one mutex; a condition variable wakes the waiters whenever a key is
// written.
#include "ember/distributed/hash_store.h"

#include "distributed/store_util.h"

namespace ember::distributed {

namespace {
constexpr const char* kWhere = "in this process's HashStore";
}  // namespace

HashStore::~HashStore() = default;

void HashStore::set(const std::string& key, const std::vector<uint8_t>& data) {
  std::lock_guard<std::mutex> lock(mutex_);
  map_[key] = data;
  key_set_.notify_all();
}

std::vector<uint8_t> HashStore::compareSet(const std::string& key,
                                           const std::vector<uint8_t>& expectedValue,
                                           const std::vector<uint8_t>& desiredValue) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = map_.find(key);
  // An absent key counts as holding the empty value; as in LibTorch, comparing an absent key
  // with a non-empty value sets nothing and returns `expectedValue`.
  if (it == map_.end() ? expectedValue.empty() : it->second == expectedValue) {
    map_[key] = desiredValue;
    key_set_.notify_all();
    return desiredValue;
  }
  return it == map_.end() ? expectedValue : it->second;
}

std::vector<uint8_t> HashStore::get(const std::string& key) {
  std::unique_lock<std::mutex> lock(mutex_);
  wait_locked(lock, "HashStore.get", {key}, timeout_);
  return map_.at(key);
}

void HashStore::wait(const std::vector<std::string>& keys) { wait(keys, timeout_); }

void HashStore::wait(const std::vector<std::string>& keys,
                     const std::chrono::milliseconds& timeout) {
  std::unique_lock<std::mutex> lock(mutex_);
  wait_locked(lock, "HashStore.wait", keys, timeout);
}

void HashStore::wait_locked(std::unique_lock<std::mutex>& lock, const char* op,
                            const std::vector<std::string>& keys,
                            std::chrono::milliseconds timeout) {
  auto missing_keys = [&] {
    std::vector<std::string> missing;
    for (const std::string& key : keys)
      if (map_.count(key) == 0) missing.push_back(key);
    return missing;
  };
  auto all_set = [&] { return missing_keys().empty(); };
  detail::Deadline deadline = detail::deadline_after(timeout);
  if (!deadline) {
    key_set_.wait(lock, all_set);
    return;
  }
  if (key_set_.wait_until(lock, *deadline, all_set)) return;
  detail::throw_wait_timeout(op, timeout, missing_keys(), kWhere);
}

int64_t HashStore::add(const std::string& key, int64_t value) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = map_.find(key);
  int64_t counter = it == map_.end() ? 0 : detail::parse_counter("HashStore.add", key, it->second);
  int64_t sum = detail::add_to_counter("HashStore.add", key, counter, value);
  map_[key] = detail::counter_bytes(sum);
  key_set_.notify_all();
  return sum;
}

int64_t HashStore::getNumKeys() {
  std::lock_guard<std::mutex> lock(mutex_);
  return static_cast<int64_t>(map_.size());
}

bool HashStore::check(const std::vector<std::string>& keys) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (const std::string& key : keys)
    if (map_.count(key) == 0) return false;
  return true;
}

bool HashStore::deleteKey(const std::string& key) {
  std::lock_guard<std::mutex> lock(mutex_);
  return map_.erase(key) == 1;
}

}  // namespace ember::distributed
