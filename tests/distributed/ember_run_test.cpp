// ember-run (tools/ember_run.cpp), run as a user runs it, with small sh programs as its ranks: the
// exact lines, exit statuses and messages that come back, and how fast a failure stops the rest.
// EMBER_RUN_PATH, the program's path, comes from tests/CMakeLists.txt.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fstream>
#include <iterator>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

extern char** environ;

namespace {

using Clock = std::chrono::steady_clock;

struct Result {
  int status = -1;  // the exit status; 128 + S for a process killed by signal S
  std::string out, err;
  double seconds = 0;
};

// One ember-run process, its stdout and stderr read through pipes.
class Launch {
 public:
  // `env`: NAME=value entries added to (before) this process's environment.
  explicit Launch(const std::vector<std::string>& args, const std::vector<std::string>& env = {}) {
#ifdef EMBER_RUN_PATH
    std::vector<std::string> words = {EMBER_RUN_PATH};
    words.insert(words.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (std::string& w : words) argv.push_back(w.data());
    argv.push_back(nullptr);
    std::vector<std::string> env_words = env;
    std::vector<char*> envp;
    for (std::string& e : env_words) envp.push_back(e.data());
    for (char** e = environ; *e != nullptr; ++e) envp.push_back(*e);
    envp.push_back(nullptr);
    int out[2], err[2];
    EXPECT_EQ(pipe2(out, O_CLOEXEC), 0);
    EXPECT_EQ(pipe2(err, O_CLOEXEC), 0);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, err[1], STDERR_FILENO);
    start_ = Clock::now();
    EXPECT_EQ(posix_spawn(&pid_, argv[0], &actions, nullptr, argv.data(), envp.data()), 0);
    posix_spawn_file_actions_destroy(&actions);
    close(out[1]);
    close(err[1]);
    fds_[0] = out[0];
    fds_[1] = err[0];
#else
    (void)args;
    (void)env;
#endif
  }

  pid_t pid() const { return pid_; }

  // Reads stdout until it holds `count` copies of `text` (or 10 s pass).
  void wait_for(const std::string& text, size_t count) {
    auto until = Clock::now() + std::chrono::seconds(10);
    while (occurrences(result_.out, text) < count && Clock::now() < until && fds_[0] >= 0) {
      pollfd fd = {fds_[0], POLLIN, 0};
      if (poll(&fd, 1, 100) > 0) read_some(0);
    }
  }

  // Reads both pipes to their end and waits for ember-run to exit.
  Result finish() {
    while (fds_[0] >= 0 || fds_[1] >= 0) {
      pollfd fds[2] = {{fds_[0], POLLIN, 0}, {fds_[1], POLLIN, 0}};
      if (poll(fds, 2, -1) < 0 && errno != EINTR) break;
      for (int i = 0; i < 2; ++i) {
        if (fds[i].revents != 0) read_some(i);
      }
    }
    int status = 0;
    waitpid(pid_, &status, 0);
    result_.seconds = std::chrono::duration<double>(Clock::now() - start_).count();
    result_.status = WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
    return result_;
  }

 private:
  static size_t occurrences(const std::string& text, const std::string& part) {
    size_t count = 0;
    for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) {
      ++count;
    }
    return count;
  }

  void read_some(int i) {
    char buffer[4096];
    ssize_t n = read(fds_[i], buffer, sizeof buffer);
    if (n > 0) {
      (i == 0 ? result_.out : result_.err).append(buffer, static_cast<size_t>(n));
    } else if (n == 0 || errno != EINTR) {
      close(fds_[i]);
      fds_[i] = -1;
    }
  }

  pid_t pid_ = -1;
  int fds_[2] = {-1, -1};
  Clock::time_point start_;
  Result result_;
};

Result run(const std::vector<std::string>& args, const std::vector<std::string>& env = {}) {
  return Launch(args, env).finish();
}

std::vector<std::string> sorted_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  std::sort(lines.begin(), lines.end());
  return lines;
}

class EmberRun : public ::testing::Test {
 protected:
  void SetUp() override {
#ifndef EMBER_RUN_PATH
    GTEST_SKIP() << "EMBER_RUN_PATH is not defined: this build has no ember-run target "
                    "(tools/ is built with EMBER_BUILD_EXAMPLES=ON)";
#endif
  }
};

const std::string kPrintVariables =
    "echo $RANK $WORLD_SIZE $LOCAL_RANK $LOCAL_WORLD_SIZE $GROUP_RANK $MASTER_ADDR $MASTER_PORT "
    "$EMBER_RUN_TEST_KEPT";

TEST_F(EmberRun, SetsTorchrunsVariablesAndKeepsTheRest) {
  // A RANK already set is replaced; other variables pass through.
  Result r =
      run({"--nproc", "3", "sh", "-c", kPrintVariables}, {"RANK=99", "EMBER_RUN_TEST_KEPT=kept"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(sorted_lines(r.out), (std::vector<std::string>{
                                     "[rank0] 0 3 0 3 0 127.0.0.1 29500 kept",
                                     "[rank1] 1 3 1 3 0 127.0.0.1 29500 kept",
                                     "[rank2] 2 3 2 3 0 127.0.0.1 29500 kept",
                                 }));
}

TEST_F(EmberRun, NumbersRanksFromTheNodeRank) {
  Result r = run({"--nproc=2", "--nnodes", "2", "--node-rank=1", "--master-addr", "10.0.0.7",
                  "--master-port", "1234", "--", "sh", "-c", kPrintVariables});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(sorted_lines(r.out), (std::vector<std::string>{
                                     "[rank2] 2 4 0 2 1 10.0.0.7 1234",
                                     "[rank3] 3 4 1 2 1 10.0.0.7 1234",
                                 }));
}

TEST_F(EmberRun, PrefixesEachLineOfStdoutAndStderr) {
  // An unended last line comes out too, ended.
  Result r = run({"--nproc", "1", "sh", "-c", "echo one; echo two; echo oops >&2; printf partial"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "[rank0] one\n[rank0] two\n[rank0] partial\n");
  EXPECT_EQ(r.err, "[rank0] oops\n");
}

TEST_F(EmberRun, KeepsLinesWholeWhenRanksPrintAtOnce) {
  // Lines longer than a pipe's atomic write (4 KiB), from two ranks printing as fast as they can.
  std::string line(5000, 'x');
  Result r = run({"--nproc", "2", "sh", "-c",
                  "i=0; while [ $i -lt 100 ]; do echo " + line + "; i=$((i+1)); done"});
  EXPECT_EQ(r.status, 0) << r.err;
  std::vector<std::string> lines = sorted_lines(r.out);
  ASSERT_EQ(lines.size(), 200u);
  EXPECT_EQ(lines.front(), "[rank0] " + line);
  EXPECT_EQ(lines.back(), "[rank1] " + line);
  EXPECT_EQ(std::count(lines.begin(), lines.end(), "[rank0] " + line), 100);
}

TEST_F(EmberRun, MasterPortZeroPicksOneFreePortForAllRanks) {
  Result r = run({"--nproc", "3", "--master-port", "0", "sh", "-c", "echo $MASTER_PORT"});
  EXPECT_EQ(r.status, 0) << r.err;
  std::vector<std::string> lines = sorted_lines(r.out);
  ASSERT_EQ(lines.size(), 3u) << r.out;
  std::string port = lines[0].substr(std::strlen("[rank0] "));
  EXPECT_EQ(lines[1], "[rank1] " + port);
  EXPECT_EQ(lines[2], "[rank2] " + port);
  int value = std::stoi(port);
  EXPECT_GE(value, 1024);
  EXPECT_LE(value, 65535);
}

TEST_F(EmberRun, FailingRankStopsTheOthersAndGivesItsStatus) {
  Result r = run({"--nproc", "2", "sh", "-c",
                  "if [ $RANK = 1 ]; then echo failing >&2; exit 3; fi; sleep 30"});
  EXPECT_EQ(r.status, 3);
  EXPECT_LT(r.seconds, 10);
  EXPECT_EQ(r.out, "");
  // The rank's last line comes before ember-run's message.
  EXPECT_TRUE(std::regex_match(r.err, std::regex("\\[rank1\\] failing\n"
                                                 "ember-run: rank 1 \\(pid [0-9]+\\) exited with "
                                                 "status 3; stopped the other rank\n")))
      << r.err;
}

TEST_F(EmberRun, RankKilledBySignalGives128PlusTheSignal) {
  Result r =
      run({"--nproc", "3", "sh", "-c", "if [ $RANK = 0 ]; then kill -KILL $$; fi; sleep 30"});
  EXPECT_EQ(r.status, 128 + SIGKILL);
  EXPECT_LT(r.seconds, 10);
  EXPECT_TRUE(std::regex_match(r.err, std::regex("ember-run: rank 0 \\(pid [0-9]+\\) was killed by "
                                                 "signal 9 \\(Killed\\); stopped the other 2 "
                                                 "ranks\n")))
      << r.err;
}

TEST_F(EmberRun, ProgramThatCannotRunGives127) {
  Result r = run({"--nproc", "2", "ember-run-test-no-such-program", "x"});
  EXPECT_EQ(r.status, 127);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err,
            "ember-run: cannot run 'ember-run-test-no-such-program': No such file or directory\n");
}

TEST_F(EmberRun, TimeoutStopsTheRanksWith124) {
  Result r = run({"--nproc", "2", "--timeout", "0.3", "sleep", "30"});
  EXPECT_EQ(r.status, 124);
  EXPECT_LT(r.seconds, 10);
  EXPECT_EQ(r.err, "ember-run: the ranks ran past --timeout 0.3 s; stopped 2 ranks\n");
}

TEST_F(EmberRun, PassesSigtermOnToTheRanks) {
  Launch launch({"--nproc", "2", "sh", "-c", "echo up; sleep 30"});
  // A failed start leaves no pid, and kill(0) would signal this whole process group.
  ASSERT_GT(launch.pid(), 0) << "ember-run did not start";
  launch.wait_for("] up\n", 2);  // both ranks run, and ember-run's handlers are in place
  kill(launch.pid(), SIGTERM);
  Result r = launch.finish();
  EXPECT_EQ(r.status, 128 + SIGTERM);
  EXPECT_LT(r.seconds, 10);
  EXPECT_EQ(r.err, "ember-run: got signal 15 (Terminated); passed it to 2 ranks\n");
}

// A process a rank leaves behind in its process group goes when the rank ends.
TEST_F(EmberRun, LeavesNoProcessBehind) {
  Result r = run({"--nproc", "1", "sh", "-c", "sleep 30 & echo $!"});
  EXPECT_EQ(r.status, 0) << r.err;
  ASSERT_EQ(r.out.rfind("[rank0] ", 0), 0u) << r.out;
  pid_t left = std::stoi(r.out.substr(std::strlen("[rank0] ")));
  // Killed, it may stay a zombie a while where its new parent (pid 1) is slow to reap it.
  auto alive = [left] {
    std::ifstream stat("/proc/" + std::to_string(left) + "/stat");
    std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
    size_t paren = text.rfind(')');
    if (paren != std::string::npos) return text.substr(paren + 2, 1) != "Z";
    return kill(left, 0) == 0;
  };
  auto until = Clock::now() + std::chrono::seconds(2);
  while (alive() && Clock::now() < until) usleep(10000);
  EXPECT_FALSE(alive()) << "pid " << left << " survived its rank";
}

TEST_F(EmberRun, BadArgumentsExit2NamingTheArgument) {
  struct Case {
    std::vector<std::string> args;
    std::string message;
  };
  const std::vector<Case> cases = {
      {{"--nproc", "0", "true"}, "--nproc must be a whole number from 1 to 4096, got '0'"},
      {{"--nproc=x", "true"}, "--nproc must be a whole number from 1 to 4096, got 'x'"},
      {{"--nproc"}, "--nproc needs a value"},
      {{"--nnodes", "2", "--node-rank", "2", "true"},
       "--node-rank must be below --nnodes (2), got 2"},
      {{"--master-port", "70000", "true"},
       "--master-port must be a whole number from 0 to 65535, got '70000'"},
      {{"--nnodes", "2", "--master-port", "0", "true"},
       "--master-port 0 (pick a free port) needs --nnodes 1; give the port all nodes use"},
      {{"--timeout", "-1", "true"}, "--timeout must be a number of seconds above 0, got '-1'"},
      {{"--frobnicate", "true"}, "unknown option '--frobnicate'"},
      {{}, "no program to run (usage: ember-run [options] prog [args...])"},
  };
  for (const Case& c : cases) {
    Result r = run(c.args);
    EXPECT_EQ(r.status, 2) << c.message;
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err, "ember-run: " + c.message + " (try --help)\n");
  }
}

TEST_F(EmberRun, HelpPrintsUsage) {
  Result r = run({"--help"});
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out.rfind("usage: ember-run ", 0), 0u) << r.out;
  EXPECT_EQ(r.err, "");
}

}  // namespace
