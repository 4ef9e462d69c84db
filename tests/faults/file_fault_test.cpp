// Saving over an existing weights file when the save dies half-way: the disk fills up (simulated
// with RLIMIT_FSIZE, which makes write() fail with EFBIG past the limit) or the process is killed
// mid-write. Either way the old file must still load with its old values: save writes a
// temporary file and renames it into place only once everything is on disk.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "ember/io.h"
#include "test_util.h"

namespace ember::test {
namespace {

namespace fs = std::filesystem;

std::string scratch_path(const std::string& name) {
  return ::testing::TempDir() + "ember_faults_" + std::to_string(getpid()) + "_" + name;
}

StateDict weights(double value, int64_t numel) {
  StateDict dict;
  dict.insert("w", full({numel}, value, kFloat32));
  dict.insert("b", full({4}, value + 1, kFloat64));
  return dict;
}

// The file at `path` loads and holds `weights(value, numel)`.
void expect_holds(const std::string& path, double value, int64_t numel) {
  StateDict got = load_safetensors(path);
  ASSERT_EQ(got.size(), size_t{2});
  const Tensor& w = *got.find("w");
  ASSERT_EQ(w.numel(), numel);
  EXPECT_EQ(w.min().item<double>(), value);
  EXPECT_EQ(w.max().item<double>(), value);
  expect_values<double>(*got.find("b"), {4}, std::vector<double>(4, value + 1));
}

int count_temporaries(const std::string& path) {
  int n = 0;
  const std::string prefix = fs::path(path).filename().string() + ".tmp.";
  for (const auto& entry : fs::directory_iterator(fs::path(path).parent_path()))
    n += entry.path().filename().string().starts_with(prefix);
  return n;
}

// Lowers this process's file-size limit for one scope. SIGXFSZ is ignored so that the write
// fails with EFBIG instead of the signal killing the test.
class FileSizeLimit {
 public:
  explicit FileSizeLimit(rlim_t bytes) {
    getrlimit(RLIMIT_FSIZE, &saved_);
    previous_handler_ = signal(SIGXFSZ, SIG_IGN);
    rlimit lowered{bytes, saved_.rlim_max};
    setrlimit(RLIMIT_FSIZE, &lowered);
  }
  ~FileSizeLimit() {
    setrlimit(RLIMIT_FSIZE, &saved_);
    signal(SIGXFSZ, previous_handler_);
  }
  FileSizeLimit(const FileSizeLimit&) = delete;
  FileSizeLimit& operator=(const FileSizeLimit&) = delete;

 private:
  rlimit saved_{};
  sighandler_t previous_handler_;
};

TEST(FileFaults, DiskFullDuringSaveKeepsTheOldFile) {
  std::string path = scratch_path("disk_full.safetensors");
  save_safetensors(weights(1.0, 1000), path);
  std::string msg;
  {
    FileSizeLimit limit(64 * 1024);  // the new file needs 4 MB
    msg = error_of([&] { save_safetensors(weights(2.0, 1 << 20), path); });
  }
  EXPECT_NE(msg.find("[save] " + path + ": cannot write"), std::string::npos) << msg;
  EXPECT_NE(msg.find("File too large"), std::string::npos) << msg;
  expect_holds(path, 1.0, 1000);
  EXPECT_EQ(count_temporaries(path), 0) << "the failed save's temporary file was left behind";

  // Nothing is stuck: the next save succeeds.
  save_safetensors(weights(3.0, 1 << 20), path);
  expect_holds(path, 3.0, 1 << 20);
  fs::remove(path);
}

// A child process saves new weights over the file again and again and is killed at a varying
// moment; after each kill the file holds either the old weights or the complete new ones.
TEST(FileFaults, KilledDuringSaveLeavesOldOrNewFileWhole) {
  std::string path = scratch_path("killed.safetensors");
  constexpr int64_t kOld = 1000, kNew = 4 << 20;  // the new file: 16 MB, several ms to write
  const StateDict fresh = weights(2.0, kNew);     // made before fork: the child only writes
  int interrupted_writes = 0;
  for (int attempt = 0; attempt < 8; ++attempt) {
    save_safetensors(weights(1.0, kOld), path);
    pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      try {
        for (;;) save_safetensors(fresh, path);
      } catch (...) {
      }
      _exit(1);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2 + 7 * attempt));
    kill(child, SIGKILL);
    int status = 0;
    waitpid(child, &status, 0);
    ASSERT_TRUE(WIFSIGNALED(status)) << "the saving child stopped on its own (a save failed)";

    if (load_safetensors(path).find("w")->numel() == kNew) {
      expect_holds(path, 2.0, kNew);
    } else {
      expect_holds(path, 1.0, kOld);
    }
    // A killed process cannot clean up: its temporary file may remain, under its own pid, and
    // never in the way of the real file or of the next save.
    std::string leftover = path + ".tmp." + std::to_string(child);
    interrupted_writes += fs::exists(leftover);
    fs::remove(leftover);
  }
  EXPECT_GT(interrupted_writes, 0) << "no kill landed inside a save; the test proved nothing";
  fs::remove(path);
}

}  // namespace
}  // namespace ember::test
