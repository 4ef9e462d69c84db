// The server's thread: one poll() over the listening socket, the clients and the stop eventfd.
// Only that thread touches the table, so it needs no lock; a wait is parked until a write makes
// its keys exist, and the client applies the timeout (cancelling a wait that ran out).
#include "distributed/tcp_server.h"

#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <mutex>
#include <system_error>

#include "distributed/store_util.h"
#include "ember/error.h"
#include "ember/string_util.h"

namespace ember::distributed::detail {

std::shared_ptr<TCPServer> TCPServer::start(uint16_t port, bool multi_tenant) {
  if (!multi_tenant) return std::make_shared<TCPServer>(listen_on(port));
  static std::mutex registry_mutex;
  static std::unordered_map<uint16_t, std::weak_ptr<TCPServer>> multi_tenant_servers;
  std::lock_guard<std::mutex> lock(registry_mutex);
  if (port != 0) {
    auto it = multi_tenant_servers.find(port);
    if (it != multi_tenant_servers.end())
      if (std::shared_ptr<TCPServer> server = it->second.lock()) return server;
  }
  auto server = std::make_shared<TCPServer>(listen_on(port));
  multi_tenant_servers[server->port()] = server;
  return server;
}

TCPServer::TCPServer(Listener listener)
    : listener_(std::move(listener)), port_(listener_.port), wake_(::eventfd(0, EFD_CLOEXEC)) {
  if (wake_.fd() < 0)
    throw Error(str("[TCPStore] cannot create the server's eventfd: ",
                    std::system_category().message(errno)));
  thread_ = std::thread([this] { run(); });
}

TCPServer::~TCPServer() {
  uint64_t one = 1;
  while (::write(wake_.fd(), &one, sizeof(one)) < 0 && errno == EINTR) {
  }
  thread_.join();
}

void TCPServer::run() {
  std::vector<pollfd> fds;
  while (true) {
    fds.clear();
    fds.push_back({wake_.fd(), POLLIN, 0});
    fds.push_back({listener_.socket.fd(), POLLIN, 0});
    for (const auto& client : clients_) fds.push_back({client->socket.fd(), POLLIN, 0});
    // EINTR, or ENOMEM, which passes: try again.
    if (::poll(fds.data(), fds.size(), -1) < 0) continue;
    if (fds[0].revents != 0) return;
    size_t polled = clients_.size();
    if (fds[1].revents & POLLIN) accept_client();
    for (size_t i = 0; i < polled; ++i)
      if (fds[i + 2].revents != 0) receive(*clients_[i]);
    std::erase_if(clients_, [](const std::unique_ptr<Client>& client) { return client->gone; });
  }
}

void TCPServer::accept_client() {
  int fd = ::accept4(listener_.socket.fd(), nullptr, nullptr, SOCK_CLOEXEC);
  // A client that gave up between poll() and accept() leaves nothing to accept.
  if (fd < 0) return;
  auto client = std::make_unique<Client>();
  client->socket = Socket(fd);
  clients_.push_back(std::move(client));
}

void TCPServer::receive(Client& client) {
  uint8_t buffer[65536];
  ssize_t got = ::recv(client.socket.fd(), buffer, sizeof(buffer), MSG_DONTWAIT);
  if (got < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)) return;
  if (got <= 0) {
    client.gone = true;
    return;
  }
  client.inbox.insert(client.inbox.end(), buffer, buffer + got);
  size_t done = 0;
  while (!client.gone && done < client.inbox.size()) {
    WireReader in(client.inbox.data() + done, client.inbox.size() - done);
    if (!handle(client, in)) {
      if (in.malformed()) client.gone = true;
      break;
    }
    done += in.consumed();
  }
  client.inbox.erase(client.inbox.begin(),
                     client.inbox.begin() + static_cast<std::ptrdiff_t>(done));
}

void TCPServer::reply(Client& client, const WireWriter& out) {
  if (!send_all(client.socket.fd(), out.data().data(), out.data().size())) client.gone = true;
}

std::vector<std::string> TCPServer::missing(const std::vector<std::string>& keys) const {
  std::vector<std::string> absent;
  for (const std::string& key : keys)
    if (table_.count(key) == 0) absent.push_back(key);
  return absent;
}

void TCPServer::wake_waiters() {
  for (const auto& client : clients_) {
    if (!client->waiting || !missing(client->waiting_for).empty()) continue;
    client->waiting = false;
    WireWriter out;
    out.u8(static_cast<uint8_t>(Status::kOk));
    out.u8(static_cast<uint8_t>(WaitReply::kReady));
    reply(*client, out);
  }
}

bool TCPServer::handle(Client& client, WireReader& in) {
  uint8_t command = 0;
  if (!in.u8(command)) return false;
  WireWriter out;
  out.u8(static_cast<uint8_t>(Status::kOk));
  std::string key;
  std::vector<std::string> keys;
  switch (static_cast<Command>(command)) {
    case Command::kSet: {
      std::vector<uint8_t> value;
      if (!in.bytes(key) || !in.bytes(value)) return false;
      table_[key] = std::move(value);
      reply(client, out);
      wake_waiters();
      return true;
    }
    case Command::kCompareSet: {
      std::vector<uint8_t> expected, desired;
      if (!in.bytes(key) || !in.bytes(expected) || !in.bytes(desired)) return false;
      auto it = table_.find(key);
      // As HashStore::compareSet: an absent key holds the empty value.
      if (it == table_.end() ? expected.empty() : it->second == expected) {
        table_[key] = desired;
        out.bytes(desired);
        reply(client, out);
        wake_waiters();
      } else {
        out.bytes(it == table_.end() ? expected : it->second);
        reply(client, out);
      }
      return true;
    }
    case Command::kGet: {
      if (!in.bytes(key)) return false;
      auto it = table_.find(key);
      out.u8(it != table_.end());
      out.bytes(it != table_.end() ? it->second : std::vector<uint8_t>{});
      reply(client, out);
      return true;
    }
    case Command::kAdd: {
      int64_t delta = 0;
      if (!in.bytes(key) || !in.i64(delta)) return false;
      auto it = table_.find(key);
      try {
        int64_t counter = it == table_.end() ? 0 : parse_counter("TCPStore.add", key, it->second);
        int64_t sum = add_to_counter("TCPStore.add", key, counter, delta);
        table_[key] = counter_bytes(sum);
        out.i64(sum);
        reply(client, out);
        wake_waiters();
      } catch (const Error& error) {
        WireWriter failure;
        failure.u8(static_cast<uint8_t>(Status::kError));
        failure.str(error.msg());
        reply(client, failure);
      }
      return true;
    }
    case Command::kCheck:
      if (!in.strs(keys)) return false;
      out.u8(missing(keys).empty());
      reply(client, out);
      return true;
    case Command::kDeleteKey:
      if (!in.bytes(key)) return false;
      out.u8(table_.erase(key) == 1);
      reply(client, out);
      return true;
    case Command::kNumKeys:
      out.i64(static_cast<int64_t>(table_.size()));
      reply(client, out);
      return true;
    case Command::kWait:
      if (!in.strs(keys)) return false;
      if (missing(keys).empty()) {
        out.u8(static_cast<uint8_t>(WaitReply::kReady));
        reply(client, out);
      } else {
        client.waiting = true;
        client.waiting_for = std::move(keys);
      }
      return true;
    case Command::kCancelWait:
      // Nothing is missing when the wait was answered already: that kReady precedes this reply.
      out.u8(static_cast<uint8_t>(WaitReply::kCancelled));
      out.strs(client.waiting ? missing(client.waiting_for) : std::vector<std::string>{});
      client.waiting = false;
      reply(client, out);
      return true;
    case Command::kJoin:
      out.i64(++workers_);
      reply(client, out);
      return true;
    case Command::kNumWorkers:
      out.i64(workers_);
      reply(client, out);
      return true;
  }
  // A command byte this protocol does not have: the peer speaks another one.
  client.gone = true;
  return false;
}

}  // namespace ember::distributed::detail
