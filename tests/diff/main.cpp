// ember_diff_test: runs random op programs through ember and LibTorch and reports every
// disagreement with the seed and program number that replay it.
//
//   ember_diff_test [--seed S] [--programs N] [--from K] [--only K] [--max-reports M] [--verbose]
//
// --seed S       the run's seed (default 1); program K of seed S is always the same program
// --programs N   how many programs to run (default 10000)
// --from K       start at program K (to resume a long run, or bisect a crash that depends on
//                the programs before it)
// --only K       run program K alone and print it with both outcomes (replaying a failure)
// --max-reports  how many failing programs to print in full (default 20; all are counted)
// --verbose      print every program and both outcomes
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <string>

#include "compare.h"
#include "gen.h"
#include "judge.h"

namespace difftest {
namespace {

struct Options {
  uint64_t seed = 1;
  uint64_t programs = 10000;
  uint64_t from = 0;
  std::optional<uint64_t> only;
  uint64_t max_reports = 20;
  bool verbose = false;
};

[[noreturn]] void usage(const char* why) {
  std::cerr << "ember_diff_test: " << why << "\n"
            << "usage: ember_diff_test [--seed S] [--programs N] [--from K] [--only K] "
               "[--max-reports M] [--verbose]\n";
  std::exit(2);
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> uint64_t {
      if (i + 1 >= argc) usage(("missing value after " + a).c_str());
      char* end = nullptr;
      uint64_t v = std::strtoull(argv[++i], &end, 10);
      if (*end != '\0') usage(("not a number: " + std::string(argv[i])).c_str());
      return v;
    };
    if (a == "--seed") o.seed = value();
    else if (a == "--programs") o.programs = value();
    else if (a == "--from") o.from = value();
    else if (a == "--only") o.only = value();
    else if (a == "--max-reports") o.max_reports = value();
    else if (a == "--verbose") o.verbose = true;
    else usage(("unknown argument " + a).c_str());
  }
  return o;
}

// What a crash handler prints: the program that was running when ember (or LibTorch) crashed.
char crash_note[160];

void on_crash(int sig) {
  ssize_t ignored = write(STDERR_FILENO, crash_note, std::strlen(crash_note));
  (void)ignored;
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

std::string replay(uint64_t seed, uint64_t k) {
  return "ember_diff_test --seed " + std::to_string(seed) + " --only " + std::to_string(k);
}

std::string heading(uint64_t seed, uint64_t k, bool failed) {
  return std::string(failed ? "FAILED: program " : "program ") + std::to_string(k) + " of seed " +
         std::to_string(seed) + " (replay: " + replay(seed, k) + ")\n";
}

// `headed`: the heading and the program are out already (--only prints them before running).
void report(uint64_t seed, uint64_t k, const Program& p, const Outcome& e, const Verdict& v,
            bool headed) {
  if (!headed) std::cout << heading(seed, k, !v.disagreements.empty()) << to_string(p);
  for (const std::string& d : v.disagreements) std::cout << "  disagreement: " << d << "\n";
  if (v.allowance) std::cout << "  allowed: " << v.allowance << "\n";
  std::cout << "  ember:\n" << to_string(p, e) << "  LibTorch:\n" << to_string(p, v.reference);
  if (v.float32) std::cout << "  LibTorch computing in float32:\n" << to_string(p, *v.float32);
  std::cout << "\n";
}

int run(const Options& o) {
  init_ember();
  init_torch();
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) std::signal(sig, on_crash);
  const uint64_t first = o.only.value_or(o.from), last = o.only ? *o.only + 1 : o.from + o.programs;
  uint64_t failures = 0, both_raised = 0;
  std::map<std::string, uint64_t> per_op, allowances;
  const auto start = std::chrono::steady_clock::now();
  for (uint64_t k = first; k < last; ++k) {
    std::snprintf(crash_note, sizeof crash_note,
                  "\nember_diff_test: crashed in program %llu (%s)\n",
                  static_cast<unsigned long long>(k), replay(o.seed, k).c_str());
    const Program p = generate(o.seed, k);
    if (o.only) std::cout << heading(o.seed, k, false) << to_string(p) << std::flush;  // crashes
    const Outcome e = run_ember(p);
    const Verdict v = judge(p, e);
    ++per_op[op_name(p.op)];
    both_raised += e.error && v.reference.error;
    if (v.allowance) ++allowances[v.allowance];
    const bool failed = !v.disagreements.empty() && ++failures <= o.max_reports;
    if (failed || o.verbose || o.only) report(o.seed, k, p, e, v, o.only.has_value());
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const uint64_t count = last - first;
  std::cout << "ember_diff_test: " << count << " programs (seed " << o.seed << ", " << per_op.size()
            << " ops) in " << seconds << " s: " << failures << " disagreements; " << both_raised
            << " programs raised in both\n";
  for (const auto& [name, n] : allowances) std::cout << "  allowed " << n << "x: " << name << "\n";
  if (failures > o.max_reports)
    std::cout << "(only the first " << o.max_reports
              << " were printed; --max-reports shows more)\n";
  return failures == 0 ? 0 : 1;
}

}  // namespace
}  // namespace difftest

int main(int argc, char** argv) { return difftest::run(difftest::parse(argc, argv)); }
