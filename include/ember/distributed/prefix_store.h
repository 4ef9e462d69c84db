// PrefixStore: another store's keys under "prefix/" (LibTorch's c10d::PrefixStore), so that many
// groups can share one store without their keys meeting.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ember/distributed/store.h"
#include "ember/macros.h"

namespace ember::distributed {

class EMBER_API PrefixStore : public Store {
 public:
  explicit PrefixStore(const std::string& prefix, std::shared_ptr<Store> store);
  ~PrefixStore() override;

  void set(const std::string& key, const std::vector<uint8_t>& value) override;
  std::vector<uint8_t> compareSet(const std::string& key, const std::vector<uint8_t>& expectedValue,
                                  const std::vector<uint8_t>& desiredValue) override;
  std::vector<uint8_t> get(const std::string& key) override;
  int64_t add(const std::string& key, int64_t value) override;
  bool deleteKey(const std::string& key) override;
  // The underlying store's count, every prefix's keys included (as in LibTorch).
  int64_t getNumKeys() override;
  bool check(const std::vector<std::string>& keys) override;
  void wait(const std::vector<std::string>& keys) override;
  void wait(const std::vector<std::string>& keys,
            const std::chrono::milliseconds& timeout) override;
  // The underlying store's timeout: the two are one setting.
  const std::chrono::milliseconds& getTimeout() const noexcept override;
  void setTimeout(const std::chrono::milliseconds& timeout) override;

  std::shared_ptr<Store> getUnderlyingStore();

 private:
  std::string joinKey(const std::string& key) const;
  std::vector<std::string> joinKeys(const std::vector<std::string>& keys) const;

  std::string prefix_;
  std::shared_ptr<Store> store_;
};

}  // namespace ember::distributed
