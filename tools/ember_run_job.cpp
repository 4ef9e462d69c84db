// ember-run's supervision of one node's ranks (ember_run_job.h): starting them, passing their
// output on line by line, and stopping them all when one fails, ember-run is signalled or
// --timeout passes.
#include "ember_run_job.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

// How long stopped ranks get between SIGTERM (or the signal passed on) and SIGKILL.
constexpr auto kGrace = std::chrono::seconds(3);

void write_all(int fd, const std::string& text) {
  for (size_t done = 0; done < text.size();) {
    ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return;  // ember-run's own output is gone; the ranks still run to their end
    done += static_cast<size_t>(n);
  }
}

// One of a rank's output pipes: the bytes of a line not yet ended, and where lines go.
struct Stream {
  int fd = -1;  // our end of the pipe; -1 once closed
  int target = STDOUT_FILENO;
  std::string pending;
};

struct Rank {
  int rank = 0;
  pid_t pid = -1;
  bool running = false;
  std::string prefix;
  Stream out, err;
};

// Reads what the pipe holds now. Complete lines go out prefixed, all of them in one write() so that
// ranks' lines never mix; at end of file an unended last line goes out too, with a newline.
void pump(Stream& s, const std::string& prefix) {
  char buffer[65536];
  bool eof = false;
  while (s.fd >= 0) {
    ssize_t n = read(s.fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) break;
    if (n <= 0) {
      eof = true;
      close(s.fd);
      s.fd = -1;
      break;
    }
    s.pending.append(buffer, static_cast<size_t>(n));
  }
  std::string lines;
  size_t start = 0;
  for (size_t end; (end = s.pending.find('\n', start)) != std::string::npos; start = end + 1) {
    lines += prefix;
    lines.append(s.pending, start, end + 1 - start);
  }
  s.pending.erase(0, start);
  if (eof && !s.pending.empty()) {
    lines += prefix + s.pending + "\n";
    s.pending.clear();
  }
  if (!lines.empty()) write_all(s.target, lines);
}

std::string describe(int status) {
  if (WIFSIGNALED(status)) {
    int sig = WTERMSIG(status);
    return "was killed by signal " + std::to_string(sig) + " (" + strsignal(sig) + ")";
  }
  return "exited with status " + std::to_string(WEXITSTATUS(status));
}

// The shell's convention: a process killed by signal S counts as exit status 128 + S.
int exit_code(int status) {
  return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
}

std::string ranks_stopped(int count) {
  if (count == 0) return "";
  if (count == 1) return "; stopped the other rank";
  return "; stopped the other " + std::to_string(count) + " ranks";
}

class Job {
 public:
  Job(const RunOptions& options, int signal_fd)
      : options_(options), signal_fd_(signal_fd), ranks_(static_cast<size_t>(options.nproc)) {}

  // Starts the ranks, supervises them to their end and returns ember-run's exit status.
  int run() {
    if (options_.timeout_s > 0) {
      deadline_ = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                     std::chrono::duration<double>(options_.timeout_s));
    }
    for (int local = 0; local < options_.nproc && !stopping_; ++local) start(local);
    while (std::any_of(ranks_.begin(), ranks_.end(), [](const Rank& r) { return r.running; })) {
      wait_for_events();
      reap();
      check_clocks();
    }
    // Every rank is gone; only a process that left its rank's group can still hold a pipe open.
    for (Rank& r : ranks_) {
      for (Stream* s : {&r.out, &r.err}) {
        pump(*s, r.prefix);
        if (s->fd >= 0) close(s->fd);
      }
    }
    return result_;
  }

 private:
  void start(int local) {
    Rank& r = ranks_[static_cast<size_t>(local)];
    r.rank = options_.node_rank * options_.nproc + local;
    r.prefix = "[rank" + std::to_string(r.rank) + "] ";
    // Set here, inherited by the child: the environment is the parent's plus these.
    setenv("RANK", std::to_string(r.rank).c_str(), 1);
    setenv("WORLD_SIZE", std::to_string(options_.nproc * options_.nnodes).c_str(), 1);
    setenv("LOCAL_RANK", std::to_string(local).c_str(), 1);
    setenv("LOCAL_WORLD_SIZE", std::to_string(options_.nproc).c_str(), 1);
    setenv("GROUP_RANK", std::to_string(options_.node_rank).c_str(), 1);
    setenv("MASTER_ADDR", options_.master_addr.c_str(), 1);
    setenv("MASTER_PORT", std::to_string(options_.master_port).c_str(), 1);

    // exec_pipe closes on a successful exec; else the child writes execvp's errno into it.
    int out[2], err[2], exec_pipe[2];
    if (pipe2(out, O_CLOEXEC) != 0 || pipe2(err, O_CLOEXEC) != 0 ||
        pipe2(exec_pipe, O_CLOEXEC) != 0) {
      return fail_to_start(
          "cannot start rank " + std::to_string(r.rank) + ": pipe: " + std::strerror(errno), 1);
    }
    pid_t parent = getpid();
    pid_t pid = fork();
    int fork_errno = errno;
    if (pid == 0) exec_rank(parent, out[1], err[1], exec_pipe[1]);
    close(out[1]);
    close(err[1]);
    close(exec_pipe[1]);
    int exec_errno = 0;
    ssize_t n;
    while ((n = read(exec_pipe[0], &exec_errno, sizeof exec_errno)) < 0 && errno == EINTR) {
    }
    close(exec_pipe[0]);
    if (pid < 0 || n > 0) {
      close(out[0]);
      close(err[0]);
      if (pid < 0) {
        return fail_to_start(
            "cannot start rank " + std::to_string(r.rank) + ": fork: " + std::strerror(fork_errno),
            1);
      }
      while (waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
      }
      return fail_to_start("cannot run '" + options_.command[0] + "': " + std::strerror(exec_errno),
                           127);
    }
    fcntl(out[0], F_SETFL, O_NONBLOCK);
    fcntl(err[0], F_SETFL, O_NONBLOCK);
    r.pid = pid;
    r.running = true;
    r.out = {out[0], STDOUT_FILENO, ""};
    r.err = {err[0], STDERR_FILENO, ""};
  }

  // In the child, between fork() and exec.
  [[noreturn]] void exec_rank(pid_t parent, int out, int err, int exec_pipe) {
    for (int sig : {SIGINT, SIGTERM, SIGCHLD}) signal(sig, SIG_DFL);
    // A group of its own: stopping the rank stops what it started too, and a Ctrl-C at the
    // terminal reaches the ranks only through ember-run, once.
    setpgid(0, 0);
#ifdef __linux__
    // Should ember-run die (SIGKILL, OOM), its ranks go too rather than run on unsupervised.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);
#else
    (void)parent;
#endif
    dup2(out, STDOUT_FILENO);
    dup2(err, STDERR_FILENO);
    std::vector<char*> argv;
    for (const std::string& arg : options_.command) argv.push_back(const_cast<char*>(arg.c_str()));
    argv.push_back(nullptr);
    execvp(argv[0], argv.data());
    int error = errno;
    if (write(exec_pipe, &error, sizeof error) < 0) {
    }  // the parent then sees exit status 127 without the reason
    _exit(127);
  }

  void fail_to_start(const std::string& message, int code) {
    result_ = code;
    std::fprintf(stderr, "ember-run: %s%s\n", message.c_str(),
                 ranks_stopped(stop(SIGTERM)).c_str());
  }

  // Sends `sig` to every running rank's process group; the first stop starts the grace period.
  int stop(int sig) {
    int count = 0;
    for (const Rank& r : ranks_) {
      if (r.running && kill(-r.pid, sig) == 0) ++count;
    }
    if (!stopping_) {
      stopping_ = true;
      stop_signal_ = sig;
      kill_at_ = Clock::now() + kGrace;
    }
    return count;
  }

  void wait_for_events() {
    std::vector<pollfd> fds = {{signal_fd_, POLLIN, 0}};
    std::vector<std::pair<Stream*, const std::string*>> streams = {{nullptr, nullptr}};
    for (Rank& r : ranks_) {
      for (Stream* s : {&r.out, &r.err}) {
        if (s->fd < 0) continue;
        fds.push_back({s->fd, POLLIN, 0});
        streams.emplace_back(s, &r.prefix);
      }
    }
    if (poll(fds.data(), fds.size(), timeout_ms()) <= 0) return;  // a timer, or EINTR
    unsigned char sig;
    while (read(signal_fd_, &sig, 1) == 1) {
      if (sig != SIGINT && sig != SIGTERM) continue;  // SIGCHLD: reap() follows
      int count = stop(sig);
      if (result_ == 0) result_ = 128 + sig;
      std::fprintf(stderr, "ember-run: got signal %d (%s); passed it to %d rank%s\n", sig,
                   strsignal(sig), count, count == 1 ? "" : "s");
    }
    for (size_t i = 1; i < fds.size(); ++i) {
      if (fds[i].revents != 0) pump(*streams[i].first, *streams[i].second);
    }
  }

  int timeout_ms() const {
    Clock::time_point next = Clock::time_point::max();
    if (deadline_ && !stopping_) next = *deadline_;
    if (stopping_ && !killed_) next = std::min(next, kill_at_);
    if (next == Clock::time_point::max()) return -1;
    // At most a minute: an int holds it, and a far --timeout just takes a few more turns.
    auto left = std::chrono::ceil<std::chrono::milliseconds>(next - Clock::now()).count();
    return static_cast<int>(std::clamp<decltype(left)>(left, 0, 60000));
  }

  void reap() {
    siginfo_t info;
    for (;;) {
      // WNOWAIT leaves the rank a zombie, which keeps its group id from being reused while the
      // rest of the group (what the rank left running) is killed.
      info.si_pid = 0;
      if (waitid(P_ALL, 0, &info, WEXITED | WNOHANG | WNOWAIT) != 0 || info.si_pid == 0) return;
      pid_t pid = info.si_pid;
      kill(-pid, SIGKILL);
      int status = 0;
      waitpid(pid, &status, 0);
      auto rank = std::find_if(ranks_.begin(), ranks_.end(),
                               [pid](const Rank& r) { return r.running && r.pid == pid; });
      if (rank == ranks_.end()) continue;
      rank->running = false;
      // Its last lines first, then why it ended.
      pump(rank->out, rank->prefix);
      pump(rank->err, rank->prefix);
      if (exit_code(status) == 0 || stopping_) continue;
      result_ = exit_code(status);
      std::fprintf(stderr, "ember-run: rank %d (pid %d) %s%s\n", rank->rank, static_cast<int>(pid),
                   describe(status).c_str(), ranks_stopped(stop(SIGTERM)).c_str());
    }
  }

  void check_clocks() {
    Clock::time_point now = Clock::now();
    if (deadline_ && !stopping_ && now >= *deadline_) {
      result_ = 124;  // timeout(1)'s status
      int count = stop(SIGTERM);
      std::fprintf(stderr, "ember-run: the ranks ran past --timeout %g s; stopped %d rank%s\n",
                   options_.timeout_s, count, count == 1 ? "" : "s");
    }
    if (stopping_ && !killed_ && now >= kill_at_) {
      killed_ = true;
      for (const Rank& r : ranks_) {
        if (!r.running) continue;
        std::fprintf(
            stderr,
            "ember-run: rank %d (pid %d) still runs %lld s after signal %d (%s); killing it\n",
            r.rank, static_cast<int>(r.pid), static_cast<long long>(kGrace.count()), stop_signal_,
            strsignal(stop_signal_));
        kill(-r.pid, SIGKILL);
      }
    }
  }

  const RunOptions& options_;
  int signal_fd_;
  std::vector<Rank> ranks_;
  int result_ = 0;
  bool stopping_ = false;  // the ranks were sent stop_signal_: SIGTERM, or a signal passed on
  int stop_signal_ = 0;
  bool killed_ = false;  // ... and, after the grace period, SIGKILL
  Clock::time_point kill_at_;
  std::optional<Clock::time_point> deadline_;  // --timeout
};

}  // namespace

int run_ranks(const RunOptions& options, int signal_fd) { return Job(options, signal_fd).run(); }
