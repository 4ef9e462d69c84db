// What the stores share: deadlines from their timeouts, the message of a wait that timed out, and
// add()'s counters, kept as decimal text as PyTorch keeps them (get() of a counter reads "3").
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ember::distributed::detail {

using Clock = std::chrono::steady_clock;
using Deadline = std::optional<Clock::time_point>;

// When a wait of `timeout` that starts now gives up; none for Store::kNoTimeout (wait forever).
Deadline deadline_after(std::chrono::milliseconds timeout);
bool has_passed(const Deadline& deadline);
// Milliseconds left before `deadline`, at least 0; -1 (poll's "forever") without a deadline.
int poll_timeout_ms(const Deadline& deadline);

// The Error of a wait that timed out: names `missing` (the keys still absent) and `where` the
// store is ("on 127.0.0.1:29500", "in file '/tmp/store'"), and says what to do about it.
[[noreturn]] void throw_wait_timeout(const std::string& op, std::chrono::milliseconds timeout,
                                     const std::vector<std::string>& missing,
                                     const std::string& where);

// The counter held at `key` (0 when `value` is empty), or an Error when it holds something else.
int64_t parse_counter(const std::string& op, const std::string& key,
                      const std::vector<uint8_t>& value);
// counter + delta, or an Error when the sum does not fit in int64_t.
int64_t add_to_counter(const std::string& op, const std::string& key, int64_t counter,
                       int64_t delta);
std::vector<uint8_t> counter_bytes(int64_t counter);

}  // namespace ember::distributed::detail
