// Tests for the rendezvous stores (ember/distributed/*_store.h): every kind keeps bytes, counts,
// compares and waits alike, and its failures name the keys, the store and what to do; TCPStore's
// server, clients and ports, and FileStore across processes.
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "ember/distributed/file_store.h"
#include "ember/distributed/hash_store.h"
#include "ember/distributed/prefix_store.h"
#include "ember/distributed/tcp_store.h"
#include "ember/error.h"
#include "test_util.h"

namespace ember::distributed {
namespace {

using namespace std::chrono_literals;
using Bytes = std::vector<uint8_t>;
using test::error_of;

Bytes bytes(const std::string& text) { return Bytes(text.begin(), text.end()); }

std::string temp_path(const std::string& name) {
  static std::atomic<int> counter{0};
  return (std::filesystem::path(testing::TempDir()) /
          (name + "." + std::to_string(::getpid()) + "." + std::to_string(counter++)))
      .string();
}

// A port nobody listens on: the system's pick for a socket closed at once.
uint16_t unused_port() {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  socklen_t length = sizeof(address);
  ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address));
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
  ::close(fd);
  return ntohs(address.sin_port);
}

TCPStoreOptions server_options() {
  TCPStoreOptions opts;
  opts.port = 0;
  opts.isServer = true;
  opts.waitWorkers = false;
  opts.timeout = 5s;
  return opts;
}

TCPStoreOptions client_options(uint16_t port) {
  TCPStoreOptions opts;
  opts.port = port;
  opts.timeout = 5s;
  return opts;
}

// The kinds of store: open() gives another rank's handle on the same table, and shown(key) is the
// key as a timeout's message names it.
struct HashKind {
  static constexpr const char* kName = "HashStore";
  std::shared_ptr<HashStore> table = std::make_shared<HashStore>();
  std::shared_ptr<Store> open() { return table; }  // the ranks are threads sharing one HashStore
  static std::string shown(const std::string& key) { return key; }
};

struct FileKind {
  static constexpr const char* kName = "FileStore";
  std::string path = temp_path("file_store");
  ~FileKind() { std::remove(path.c_str()); }
  // numWorkers -1: no handle removes the file, which the test's later handles still use.
  std::shared_ptr<Store> open() { return std::make_shared<FileStore>(path, -1); }
  static std::string shown(const std::string& key) { return key; }
};

struct TCPKind {
  static constexpr const char* kName = "TCPStore";
  std::shared_ptr<TCPStore> server = std::make_shared<TCPStore>("127.0.0.1", server_options());
  std::shared_ptr<Store> open() {
    return std::make_shared<TCPStore>("127.0.0.1", client_options(server->getPort()));
  }
  static std::string shown(const std::string& key) { return key; }
};

struct PrefixKind {
  static constexpr const char* kName = "PrefixStore";
  std::shared_ptr<HashStore> table = std::make_shared<HashStore>();
  std::shared_ptr<Store> open() { return std::make_shared<PrefixStore>("group0", table); }
  static std::string shown(const std::string& key) { return "group0/" + key; }
};

template <class Kind>
class StoreTest : public testing::Test {
 protected:
  Kind kind;
  std::shared_ptr<Store> store = kind.open();
};

using StoreKinds = testing::Types<HashKind, FileKind, TCPKind, PrefixKind>;
struct KindName {
  template <class Kind>
  static std::string GetName(int) {
    return Kind::kName;
  }
};
TYPED_TEST_SUITE(StoreTest, StoreKinds, KindName);

TYPED_TEST(StoreTest, SetGetRoundTripsBytes) {
  Store& store = *this->store;
  const Bytes binary{0, 1, 0, 255, 'a', 0};
  store.set("binary", binary);
  store.set("empty", {});
  EXPECT_EQ(store.get("binary"), binary);
  EXPECT_EQ(store.get("empty"), Bytes{});
  store.set("binary", bytes("second"));
  EXPECT_EQ(store.get("binary"), bytes("second"));
  // Another rank's handle sees the same table.
  std::shared_ptr<Store> peer = this->kind.open();
  EXPECT_EQ(peer->get("binary"), bytes("second"));
  EXPECT_EQ(peer->get("empty"), Bytes{});
}

TYPED_TEST(StoreTest, AddReturnsRunningSums) {
  Store& store = *this->store;
  EXPECT_EQ(store.add("counter", 3), 3);
  EXPECT_EQ(store.add("counter", -1), 2);
  EXPECT_EQ(store.add("counter", 0), 2);
  EXPECT_EQ(store.get("counter"), bytes("2"));  // kept as decimal text, as PyTorch keeps it
  store.set("preset", bytes("40"));
  EXPECT_EQ(store.add("preset", 2), 42);
}

TYPED_TEST(StoreTest, ConcurrentAddsSumExactly) {
  constexpr int kThreads = 4, kAddsEach = 25;
  std::vector<std::vector<int64_t>> returned(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([this, t, &returned] {
      std::shared_ptr<Store> rank = this->kind.open();
      for (int i = 0; i < kAddsEach; ++i) returned[t].push_back(rank->add("counter", 1));
    });
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(this->store->add("counter", 0), kThreads * kAddsEach);
  // Each add saw every earlier one: the sums returned are 1..100, each once.
  std::vector<int64_t> all;
  for (const auto& sums : returned) all.insert(all.end(), sums.begin(), sums.end());
  std::sort(all.begin(), all.end());
  for (int i = 0; i < kThreads * kAddsEach; ++i) EXPECT_EQ(all[static_cast<size_t>(i)], i + 1);
}

TYPED_TEST(StoreTest, AddOnANonIntegerValueSaysSo) {
  Store& store = *this->store;
  store.set("name", bytes("abc"));
  std::string message = error_of<Error>([&] { store.add("name", 1); });
  EXPECT_NE(message.find(".add] key '" + TypeParam::shown("name") + "' holds \"abc\""),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("not an integer"), std::string::npos) << message;
  EXPECT_EQ(store.get("name"), bytes("abc"));
}

TYPED_TEST(StoreTest, CompareSetSetsOnlyWhatItExpects) {
  Store& store = *this->store;
  // Absent, expecting empty: set.
  EXPECT_EQ(store.compareSet("k", {}, bytes("one")), bytes("one"));
  EXPECT_EQ(store.get("k"), bytes("one"));
  // Present and as expected: set.
  EXPECT_EQ(store.compareSet("k", bytes("one"), bytes("two")), bytes("two"));
  EXPECT_EQ(store.get("k"), bytes("two"));
  // Present, not as expected: unchanged, and the value it holds is returned.
  EXPECT_EQ(store.compareSet("k", bytes("one"), bytes("three")), bytes("two"));
  EXPECT_EQ(store.get("k"), bytes("two"));
  // Absent, expecting a value: nothing set, and (as in LibTorch) the expected value returned.
  EXPECT_EQ(store.compareSet("absent", bytes("x"), bytes("y")), bytes("x"));
  EXPECT_FALSE(store.check({"absent"}));
}

TYPED_TEST(StoreTest, CheckDeleteKeyAndGetNumKeys) {
  Store& store = *this->store;
  EXPECT_EQ(store.getNumKeys(), 0);
  EXPECT_TRUE(store.check({}));
  EXPECT_FALSE(store.check({"a"}));
  store.set("a", bytes("1"));
  store.add("b", 5);
  EXPECT_TRUE(store.check({"a"}));
  EXPECT_TRUE(store.check({"a", "b"}));
  EXPECT_FALSE(store.check({"a", "c"}));
  EXPECT_EQ(store.getNumKeys(), 2);
  EXPECT_TRUE(store.deleteKey("a"));
  EXPECT_FALSE(store.deleteKey("a"));
  EXPECT_FALSE(store.check({"a"}));
  EXPECT_TRUE(store.check({"b"}));
  EXPECT_EQ(store.getNumKeys(), 1);
  EXPECT_EQ(store.add("a", 7), 7);  // a deleted key starts again from 0
  EXPECT_EQ(store.getNumKeys(), 2);
}

TYPED_TEST(StoreTest, WaitReturnsWhenAnotherRankSetsTheKeys) {
  std::shared_ptr<Store> peer = this->kind.open();
  std::thread other_rank([&] {
    std::this_thread::sleep_for(50ms);
    peer->set("rank1/ready", bytes("yes"));
    peer->add("arrived", 1);
  });
  auto start = std::chrono::steady_clock::now();
  this->store->wait({"rank1/ready", "arrived"}, 5s);
  EXPECT_GE(std::chrono::steady_clock::now() - start, 40ms);
  other_rank.join();
  EXPECT_EQ(this->store->get("rank1/ready"), bytes("yes"));
  EXPECT_EQ(this->store->get("arrived"), bytes("1"));
}

TYPED_TEST(StoreTest, WaitTimeoutNamesTheMissingKeys) {
  Store& store = *this->store;
  store.set("present", bytes("1"));
  auto start = std::chrono::steady_clock::now();
  std::string message = error_of<Error>([&] {
    store.wait({"present", "rank1/ready", "x"}, 150ms);
  });
  auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_GE(elapsed, 150ms);
  EXPECT_LT(elapsed, 2s);
  const std::string missing =
      "keys '" + TypeParam::shown("rank1/ready") + "', '" + TypeParam::shown("x") + "' ";
  EXPECT_NE(message.find(".wait] timed out after 150 ms waiting for " + missing), std::string::npos)
      << message;
  EXPECT_EQ(message.find("present"), std::string::npos) << message;
  EXPECT_NE(message.find("the ranks that set them have not arrived or have failed"),
            std::string::npos)
      << message;
  // The store is still usable after a wait that timed out.
  store.set("x", bytes("late"));
  EXPECT_EQ(store.get("x"), bytes("late"));
}

TYPED_TEST(StoreTest, GetBlocksUntilTheKeyIsSet) {
  std::shared_ptr<Store> peer = this->kind.open();
  std::thread other_rank([&] {
    std::this_thread::sleep_for(50ms);
    peer->set("late", bytes("value"));
  });
  EXPECT_EQ(this->store->get("late"), bytes("value"));
  other_rank.join();
}

TYPED_TEST(StoreTest, GetTimeoutNamesTheKey) {
  Store& store = *this->store;
  store.setTimeout(150ms);
  EXPECT_EQ(store.getTimeout(), 150ms);
  std::string message = error_of<Error>([&] { store.get("never"); });
  EXPECT_NE(message.find(".get] timed out after 150 ms waiting for key '" +
                         TypeParam::shown("never") + "' "),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("the rank that sets it"), std::string::npos) << message;
}

TEST(HashStoreTest, TimeoutNamesTheStore) {
  HashStore store;
  std::string message = error_of<Error>([&] { store.wait({"k"}, 100ms); });
  EXPECT_NE(message.find("[HashStore.wait] timed out after 100 ms waiting for key 'k' in this "
                         "process's HashStore"),
            std::string::npos)
      << message;
}

TEST(TCPStoreTest, TwoClientsInThreadsMeetThroughTheServer) {
  TCPStore server("127.0.0.1", server_options());
  uint16_t port = server.getPort();
  EXPECT_NE(port, 0);
  EXPECT_EQ(server.getHost(), "127.0.0.1");
  std::vector<Bytes> seen(2);
  std::vector<std::thread> ranks;
  for (int rank = 0; rank < 2; ++rank)
    ranks.emplace_back([rank, port, &seen] {
      // One client by name, one by address.
      TCPStore client(rank == 0 ? "localhost" : "127.0.0.1", client_options(port));
      client.set("rank" + std::to_string(rank), bytes("hello from " + std::to_string(rank)));
      seen[static_cast<size_t>(rank)] = client.get("rank" + std::to_string(1 - rank));
      client.add("done", 1);
    });
  for (std::thread& rank : ranks) rank.join();
  EXPECT_EQ(seen[0], bytes("hello from 1"));
  EXPECT_EQ(seen[1], bytes("hello from 0"));
  EXPECT_EQ(server.get("done"), bytes("2"));
  EXPECT_EQ(server.getNumKeys(), 3);
}

TEST(TCPStoreTest, TimeoutNamesTheServer) {
  TCPStore server("127.0.0.1", server_options());
  std::string message = error_of<Error>([&] { server.wait({"k"}, 100ms); });
  EXPECT_NE(
      message.find("[TCPStore.wait] timed out after 100 ms waiting for key 'k' on 127.0.0.1:" +
                   std::to_string(server.getPort()) + ";"),
      std::string::npos)
      << message;
}

TEST(TCPStoreTest, ClientWithoutAServerFailsWithinItsTimeout) {
  uint16_t port = unused_port();
  TCPStoreOptions opts = client_options(port);
  opts.timeout = 200ms;
  auto start = std::chrono::steady_clock::now();
  std::string message = error_of<Error>([&] { TCPStore client("127.0.0.1", opts); });
  auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_GE(elapsed, 200ms);
  EXPECT_LT(elapsed, 2s);
  EXPECT_NE(message.find("[TCPStore] cannot connect to the store server at 127.0.0.1:" +
                         std::to_string(port) + " within 200 ms"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("Connection refused"), std::string::npos) << message;
  EXPECT_NE(message.find("MASTER_ADDR and MASTER_PORT"), std::string::npos) << message;
  EXPECT_NE(message.find("rank 0 is running"), std::string::npos) << message;
}

TEST(TCPStoreTest, ClientStartedBeforeTheServerConnects) {
  uint16_t port = unused_port();
  Bytes got;
  std::thread client_rank([&] {
    TCPStore client("127.0.0.1", client_options(port));
    got = client.get("from_server");
  });
  std::this_thread::sleep_for(100ms);
  TCPStoreOptions opts = server_options();
  opts.port = port;
  TCPStore server("127.0.0.1", opts);
  server.set("from_server", bytes("hi"));
  client_rank.join();
  EXPECT_EQ(got, bytes("hi"));
}

TEST(TCPStoreTest, SecondServerOnAPortInUseSaysSo) {
  TCPStore first("127.0.0.1", server_options());
  TCPStoreOptions opts = server_options();
  opts.port = first.getPort();
  std::string message = error_of<Error>([&] { TCPStore second("127.0.0.1", opts); });
  EXPECT_NE(message.find("port " + std::to_string(first.getPort()) + " is already in use"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("use port 0"), std::string::npos) << message;
}

TEST(TCPStoreTest, ServerGoneSaysRankZeroMayHaveFailed) {
  auto server = std::make_unique<TCPStore>("127.0.0.1", server_options());
  uint16_t port = server->getPort();
  TCPStore client("127.0.0.1", client_options(port));
  client.set("k", bytes("v"));
  server.reset();
  std::string message = error_of<Error>([&] { client.get("k"); });
  EXPECT_NE(message.find("[TCPStore.get] lost the connection to the store server at 127.0.0.1:" +
                         std::to_string(port)),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("rank 0, which runs it, may have exited or failed"), std::string::npos)
      << message;
}

TEST(TCPStoreTest, MultiTenantServersShareAPort) {
  TCPStoreOptions opts = server_options();
  opts.multiTenant = true;
  TCPStore first("127.0.0.1", opts);
  opts.port = first.getPort();
  TCPStore second("127.0.0.1", opts);
  first.set("k", bytes("shared"));
  EXPECT_EQ(second.get("k"), bytes("shared"));
}

TEST(TCPStoreTest, WaitForWorkersWaitsForEveryRank) {
  TCPStoreOptions opts = server_options();
  opts.numWorkers = 3;
  TCPStore server("127.0.0.1", opts);
  std::vector<std::thread> ranks;
  for (int rank = 1; rank < 3; ++rank)
    ranks.emplace_back([&server] {
      TCPStoreOptions client_opts = client_options(server.getPort());
      client_opts.numWorkers = 3;  // joins in its constructor (waitWorkers) and returns
      TCPStore client("127.0.0.1", client_opts);
    });
  server.waitForWorkers();
  for (std::thread& rank : ranks) rank.join();
  server.waitForWorkers();  // counted once however often called: still 3 of 3
}

TEST(TCPStoreTest, WaitForWorkersSaysHowManyJoined) {
  TCPStoreOptions opts = server_options();
  opts.numWorkers = 2;
  opts.waitWorkers = true;
  opts.timeout = 200ms;
  std::string message = error_of<Error>([&] { TCPStore server("127.0.0.1", opts); });
  EXPECT_NE(message.find("[TCPStore.waitForWorkers] only 1 of 2 workers joined the store at "
                         "127.0.0.1:"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("within 200 ms"), std::string::npos) << message;
}

TEST(FileStoreTest, ProcessesShareTheFile) {
  std::string path = temp_path("file_store_fork");
  FileStore parent(path, 2);
  parent.setTimeout(5s);
  pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    // The child is another rank: its own FileStore on the path. _exit skips gtest's teardown.
    int status = 0;
    try {
      FileStore store(path, 2);
      store.setTimeout(5s);
      // The add comes first: once "child/ready" is there the parent counts on the 5.
      store.add("counter", 5);
      store.set("child/ready", Bytes{0, 7, 0});
      store.wait({"parent/go"});
      if (store.add("counter", 10) != 16) status = 3;
    } catch (const Error&) {
      status = 2;
    }
    ::_exit(status);
  }
  std::string failure;
  try {
    parent.wait({"child/ready"});
    EXPECT_EQ(parent.get("child/ready"), (Bytes{0, 7, 0}));
    EXPECT_EQ(parent.add("counter", 1), 6);
    parent.set("parent/go", bytes("1"));
  } catch (const Error& error) {
    failure = error.what();
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  EXPECT_EQ(failure, "");
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  EXPECT_EQ(parent.add("counter", 0), 16);
  EXPECT_EQ(parent.getNumKeys(), 3);
}

TEST(FileStoreTest, TheLastWorkerRemovesTheFile) {
  std::string path = temp_path("file_store_cleanup");
  auto first = std::make_unique<FileStore>(path, 2);
  auto second = std::make_unique<FileStore>(path, 2);
  EXPECT_EQ(first->getPath(), path);
  first->set("k", bytes("v"));
  first.reset();
  EXPECT_TRUE(std::filesystem::exists(path));
  EXPECT_EQ(second->get("k"), bytes("v"));
  second.reset();
  EXPECT_FALSE(std::filesystem::exists(path));
}

TEST(FileStoreTest, UnopenablePathNamesThePathAndTheReason) {
  std::string path = temp_path("no_such_directory") + "/store";
  std::string message = error_of<Error>([&] { FileStore store(path, 1); });
  EXPECT_NE(message.find("[FileStore] cannot open the store file '" + path +
                         "': No such file or directory"),
            std::string::npos)
      << message;
}

TEST(FileStoreTest, TimeoutNamesTheFile) {
  std::string path = temp_path("file_store_timeout");
  FileStore store(path, 1);
  std::string message = error_of<Error>([&] { store.wait({"k"}, 100ms); });
  EXPECT_NE(message.find("[FileStore.wait] timed out after 100 ms waiting for key 'k' in file '" +
                         path + "';"),
            std::string::npos)
      << message;
}

TEST(PrefixStoreTest, PrefixesKeepTheirKeysApart) {
  auto table = std::make_shared<HashStore>();
  PrefixStore a("a", table), b("b", table);
  EXPECT_EQ(a.getUnderlyingStore(), table);
  a.set("k", bytes("from a"));
  b.set("k", bytes("from b"));
  EXPECT_EQ(a.get("k"), bytes("from a"));
  EXPECT_EQ(b.get("k"), bytes("from b"));
  EXPECT_EQ(table->get("a/k"), bytes("from a"));
  EXPECT_EQ(a.add("n", 2), 2);
  EXPECT_EQ(b.add("n", 5), 5);
  EXPECT_TRUE(a.deleteKey("k"));
  EXPECT_FALSE(a.check({"k"}));
  EXPECT_TRUE(b.check({"k", "n"}));
  EXPECT_EQ(a.getNumKeys(), 3);  // the underlying store's count: a/n, b/k, b/n
  a.setTimeout(1234ms);
  EXPECT_EQ(table->getTimeout(), 1234ms);
  EXPECT_EQ(b.getTimeout(), 1234ms);
}

}  // namespace
}  // namespace ember::distributed
