// Stores: the key-value table through which the processes of a group find each other (LibTorch's
// c10d::Store and its kinds). Values are bytes; `get` and `wait` block until the keys exist or
// the store's timeout passes, and then throw an ember::Error that names the keys still missing.
//   HashStore    in this process only (threads standing in for ranks, tests)
//   FileStore    a file on a filesystem every rank sees (init method file://)
//   TCPStore     a server in one rank's process, a client in each (init methods env:// and tcp://)
//   PrefixStore  another store's keys under "prefix/" (one table, many groups)
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ember/macros.h"

namespace ember::distributed {

class EMBER_API Store {
 public:
  static constexpr std::chrono::milliseconds kDefaultTimeout = std::chrono::seconds(300);
  static constexpr std::chrono::milliseconds kNoTimeout = std::chrono::milliseconds::zero();

  Store() : timeout_(kDefaultTimeout) {}
  explicit Store(const std::chrono::milliseconds& timeout) : timeout_(timeout) {}
  virtual ~Store();

  virtual void set(const std::string& key, const std::vector<uint8_t>& value) = 0;
  // Sets `key` to `newValue` when it holds `currentValue` (or is absent and `currentValue` is
  // empty); returns the value it holds afterwards, or, as LibTorch does, `currentValue` when the
  // key is absent and stays so.
  virtual std::vector<uint8_t> compareSet(const std::string& key,
                                          const std::vector<uint8_t>& currentValue,
                                          const std::vector<uint8_t>& newValue) = 0;
  virtual std::vector<uint8_t> get(const std::string& key) = 0;
  // Adds `value` to the integer at `key` (0 when absent) and returns the sum: the counters of
  // rendezvous and barriers.
  virtual int64_t add(const std::string& key, int64_t value) = 0;
  virtual bool deleteKey(const std::string& key) = 0;
  virtual bool check(const std::vector<std::string>& keys) = 0;
  virtual int64_t getNumKeys() = 0;
  virtual void wait(const std::vector<std::string>& keys) = 0;
  virtual void wait(const std::vector<std::string>& keys,
                    const std::chrono::milliseconds& timeout) = 0;

  virtual const std::chrono::milliseconds& getTimeout() const noexcept;
  virtual void setTimeout(const std::chrono::milliseconds& timeout);

 protected:
  std::chrono::milliseconds timeout_;
};

}  // namespace ember::distributed
