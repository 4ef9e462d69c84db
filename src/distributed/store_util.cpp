// Deadlines, wait timeouts and counters, shared by HashStore, FileStore and TCPStore.
#include "distributed/store_util.h"

#include <algorithm>
#include <cctype>
#include <charconv>

#include "ember/error.h"
#include "ember/string_util.h"

namespace ember::distributed::detail {

Deadline deadline_after(std::chrono::milliseconds timeout) {
  if (timeout == std::chrono::milliseconds::zero()) return std::nullopt;
  return Clock::now() + timeout;
}

bool has_passed(const Deadline& deadline) { return deadline && Clock::now() >= *deadline; }

int poll_timeout_ms(const Deadline& deadline) {
  if (!deadline) return -1;
  auto left = std::chrono::ceil<std::chrono::milliseconds>(*deadline - Clock::now()).count();
  return static_cast<int>(std::clamp<int64_t>(left, 0, 1 << 30));
}

void throw_wait_timeout(const std::string& op, std::chrono::milliseconds timeout,
                        const std::vector<std::string>& missing, const std::string& where) {
  std::vector<std::string> quoted;
  for (const std::string& key : missing) quoted.push_back("'" + key + "'");
  bool one = missing.size() == 1;
  throw Error(str("[", op, "] timed out after ", timeout.count(), " ms waiting for ",
                  one ? "key " : "keys ", Join(", ", quoted), " ", where, "; ",
                  one ? "the rank that sets it has not arrived or has failed"
                      : "the ranks that set them have not arrived or have failed",
                  " (set a longer timeout, or check that every rank started)"));
}

int64_t parse_counter(const std::string& op, const std::string& key,
                      const std::vector<uint8_t>& value) {
  if (value.empty()) return 0;
  const char* begin = reinterpret_cast<const char*>(value.data());
  const char* end = begin + value.size();
  int64_t counter = 0;
  auto [stop, err] = std::from_chars(begin, end, counter);
  if (err == std::errc() && stop == end) return counter;
  // Printable values are shown, so that a key set by mistake is recognised.
  bool printable = value.size() <= 64 && std::all_of(begin, end, [](char c) {
                     return std::isprint(static_cast<unsigned char>(c)) != 0;
                   });
  throw Error(
      str("[", op, "] key '", key, "' holds ",
          printable ? str("\"", std::string(begin, end), "\"") : str(value.size(), " bytes"),
          ", which is not an integer, so add() cannot count on it; add() keeps its "
          "counters as decimal text, so keep counters on keys that only add() writes"));
}

int64_t add_to_counter(const std::string& op, const std::string& key, int64_t counter,
                       int64_t delta) {
  int64_t sum = 0;
  if (__builtin_add_overflow(counter, delta, &sum))
    throw Error(str("[", op, "] key '", key, "' holds ", counter, "; adding ", delta,
                    " overflows int64_t"));
  return sum;
}

std::vector<uint8_t> counter_bytes(int64_t counter) {
  std::string text = std::to_string(counter);
  return std::vector<uint8_t>(text.begin(), text.end());
}

}  // namespace ember::distributed::detail
