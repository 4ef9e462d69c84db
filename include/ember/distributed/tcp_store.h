// TCPStore: a Store served over TCP by one rank (LibTorch's c10d::TCPStore; the env:// and tcp://
// init methods). The rank with isServer runs the server in a background thread; every rank, that
// one included, talks to it through a client connection.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "ember/distributed/store.h"
#include "ember/macros.h"

namespace ember::distributed {

namespace detail {
class TCPServer;
class TCPClient;
}  // namespace detail

struct TCPStoreOptions {
  static constexpr std::uint16_t kDefaultPort = 29500;

  // 0 with isServer: a free port the system picks, which getPort() then returns.
  std::uint16_t port = kDefaultPort;
  bool isServer = false;
  // The world size, server included; waitForWorkers() waits for that many stores to join.
  std::optional<std::size_t> numWorkers = std::nullopt;
  // Whether the constructor calls waitForWorkers().
  bool waitWorkers = true;
  // For connecting, for every reply, and for get() and wait().
  std::chrono::milliseconds timeout = Store::kDefaultTimeout;
  // Whether several servers in this process may share host:port (the first one started serves).
  bool multiTenant = false;
};

class EMBER_API TCPStore : public Store {
 public:
  // Starts the server when opts.isServer, then connects to host:opts.port, retrying until
  // opts.timeout while the server is not up yet. Throws an Error naming host:port when the
  // connection cannot be made, and the port when the server cannot listen on it.
  explicit TCPStore(std::string host, const TCPStoreOptions& opts = {});
  ~TCPStore() override;

  void set(const std::string& key, const std::vector<uint8_t>& value) override;
  std::vector<uint8_t> compareSet(const std::string& key, const std::vector<uint8_t>& expectedValue,
                                  const std::vector<uint8_t>& desiredValue) override;
  std::vector<uint8_t> get(const std::string& key) override;
  int64_t add(const std::string& key, int64_t value) override;
  bool deleteKey(const std::string& key) override;
  bool check(const std::vector<std::string>& keys) override;
  int64_t getNumKeys() override;
  void wait(const std::vector<std::string>& keys) override;
  void wait(const std::vector<std::string>& keys,
            const std::chrono::milliseconds& timeout) override;

  // Counts this store as joined (once, however often it is called) and, on the server's store,
  // waits until numWorkers have joined; an Error after the timeout says how many did. Does nothing
  // without numWorkers.
  void waitForWorkers();

  const std::string& getHost() const noexcept { return host_; }
  std::uint16_t getPort() const noexcept { return port_; }

 private:
  // Waits for `keys` with activeOpLock_ held; `op` names the operation in a timeout's Error.
  void doWait(const char* op, const std::vector<std::string>& keys,
              std::chrono::milliseconds timeout);

  std::string host_;
  std::uint16_t port_;
  std::shared_ptr<detail::TCPServer> server_;
  std::unique_ptr<detail::TCPClient> client_;
  std::optional<std::size_t> numWorkers_;
  bool joined_ = false;
  // One connection: its requests and replies go one at a time.
  std::mutex activeOpLock_;
};

}  // namespace ember::distributed
