// TCPStore's server: the table of keys, served to every rank's client by a background thread of
// the process that hosts it (rank 0's).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "distributed/socket.h"
#include "distributed/tcp_protocol.h"

namespace ember::distributed::detail {

class TCPServer {
 public:
  // A server listening on `port` (0: a free one the system picks). With `multi_tenant`, the
  // multi-tenant server this process already runs on `port`, if there is one.
  static std::shared_ptr<TCPServer> start(uint16_t port, bool multi_tenant);

  explicit TCPServer(Listener listener);
  // Stops the thread, which closes every connection.
  ~TCPServer();
  TCPServer(const TCPServer&) = delete;
  TCPServer& operator=(const TCPServer&) = delete;

  uint16_t port() const { return port_; }

 private:
  struct Client {
    Socket socket;
    std::vector<uint8_t> inbox;  // received bytes not yet a whole request
    bool waiting = false;        // for the keys in `waiting_for`, not yet answered
    std::vector<std::string> waiting_for;
    bool gone = false;
  };

  void run();
  void accept_client();
  void receive(Client& client);
  // Handles the request at the start of `in`; false when it has not all arrived.
  bool handle(Client& client, WireReader& in);
  void reply(Client& client, const WireWriter& out);
  // Answers the waits whose keys now all exist.
  void wake_waiters();
  std::vector<std::string> missing(const std::vector<std::string>& keys) const;

  Listener listener_;
  uint16_t port_;
  Socket wake_;  // an eventfd: written by the destructor, it ends run()'s poll()
  std::vector<std::unique_ptr<Client>> clients_;
  std::unordered_map<std::string, std::vector<uint8_t>> table_;
  int64_t workers_ = 0;
  std::thread thread_;
};

}  // namespace ember::distributed::detail
