// torch_api_agree REFERENCE ACTUAL: compares two outputs of the LibTorch API test line by line.
// Numbers compare as numbers: integers exactly, anything with a point or an exponent within a
// relative 1e-5 (plus an absolute 1e-6, for values a different summation order leaves near zero);
// all other text must be equal. Prints each disagreeing line and exits 1 if there is one.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

namespace {

std::vector<std::string> read_lines(const char* path) {
  std::ifstream in(path);
  if (!in) {
    std::cerr << "torch_api_agree: cannot read " << path << "\n";
    std::exit(2);
  }
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

bool is_digit(std::string_view text, size_t i) {
  return i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]));
}

// The length of the number starting at text[i] (an optional '-', digits, an optional fraction
// and exponent), or 0 if none starts there.
size_t number_length(std::string_view text, size_t i) {
  size_t j = i + (i < text.size() && text[i] == '-');
  if (!is_digit(text, j)) return 0;
  while (is_digit(text, j)) ++j;
  if (j < text.size() && text[j] == '.' && is_digit(text, j + 1)) {
    for (++j; is_digit(text, j);) ++j;
  }
  if (j < text.size() && text[j] == 'e') {
    const size_t sign = j + 1 < text.size() && (text[j + 1] == '-' || text[j + 1] == '+');
    if (is_digit(text, j + 1 + sign)) {
      for (j += 1 + sign; is_digit(text, j);) ++j;
    }
  }
  return j - i;
}

bool numbers_agree(std::string_view expected, std::string_view actual) {
  const bool integers = expected.find_first_of(".e") == std::string_view::npos &&
                        actual.find_first_of(".e") == std::string_view::npos;
  if (integers) return expected == actual;
  const double a = std::stod(std::string(expected));
  const double b = std::stod(std::string(actual));
  return std::abs(a - b) <= 1e-5 * std::max(std::abs(a), std::abs(b)) + 1e-6;
}

bool lines_agree(std::string_view expected, std::string_view actual) {
  size_t i = 0, j = 0;
  while (i < expected.size() && j < actual.size()) {
    // A number starts only where a word does not continue (so `x2` and `kF32` stay text).
    const bool word_before = i > 0 && (std::isalnum(static_cast<unsigned char>(expected[i - 1])) ||
                                       expected[i - 1] == '_');
    const size_t n = word_before ? 0 : number_length(expected, i);
    const size_t m = word_before ? 0 : number_length(actual, j);
    if (n > 0 && m > 0) {
      if (!numbers_agree(expected.substr(i, n), actual.substr(j, m))) return false;
      i += n;
      j += m;
    } else if (expected[i++] != actual[j++]) {
      return false;
    }
  }
  return i == expected.size() && j == actual.size();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: torch_api_agree REFERENCE ACTUAL\n";
    return 2;
  }
  const std::vector<std::string> expected = read_lines(argv[1]);
  const std::vector<std::string> actual = read_lines(argv[2]);
  int disagreements = 0;
  for (size_t k = 0; k < std::max(expected.size(), actual.size()); ++k) {
    const std::string none = "(no line)";
    const std::string& e = k < expected.size() ? expected[k] : none;
    const std::string& a = k < actual.size() ? actual[k] : none;
    if (k < expected.size() && k < actual.size() && lines_agree(e, a)) continue;
    if (++disagreements <= 50)
      std::cout << "line " << k + 1 << ":\n  " << argv[1] << ": " << e << "\n  " << argv[2] << ": "
                << a << "\n";
  }
  std::cout << disagreements << " of " << expected.size() << " lines of " << argv[1]
            << " disagree\n";
  return disagreements == 0 ? 0 : 1;
}
