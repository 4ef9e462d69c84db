// Tests for ember/npy.h: hand-built .npy files of every dtype, version, byte order and layout,
// np.save's exact bytes, round trips, every malformed file load_npy must refuse, and .npz
// archives, stored and deflated.
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "ember/ember.h"
#include "io/io_test_util.h"
#include "io/zip_archive.h"
#include "test_util.h"

namespace ember {
namespace {

using test::error_of;
using test::read_file;
using test::temp_path;
using test::write_file;

// A .npy file: the magic, version major.0, the header length (2 bytes in 1.0, else 4), `dict`
// unpadded (the reader does not need NumPy's alignment) and `data`.
std::string npy_file(const std::string& dict, const std::string& data, int major = 1) {
  std::string out = "\x93NUMPY";
  out += static_cast<char>(major);
  out += '\0';
  const size_t length_bytes = major == 1 ? 2 : 4;
  for (size_t i = 0; i < length_bytes; ++i)
    out += static_cast<char>((dict.size() >> (8 * i)) & 0xff);
  return out + dict + data;
}

std::string header(const std::string& descr, const std::string& shape, bool fortran = false) {
  return "{'descr': '" + descr + "', 'fortran_order': " + (fortran ? "True" : "False") +
         ", 'shape': " + shape + ", }\n";
}

template <class T>
std::string raw(const std::vector<T>& values) {
  return std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T));
}

std::string reversed_bytes(std::string bytes, size_t element_size) {
  for (size_t i = 0; i < bytes.size(); i += element_size)
    std::reverse(bytes.begin() + static_cast<std::ptrdiff_t>(i),
                 bytes.begin() + static_cast<std::ptrdiff_t>(i + element_size));
  return bytes;
}

Tensor load_bytes(const std::string& bytes, const std::string& name = "a.npy") {
  const std::string path = temp_path(name);
  write_file(path, bytes);
  Tensor t = load_npy(path);
  std::filesystem::remove(path);
  return t;
}

// The message load_npy gives for a file holding `bytes`, without the path.
std::string npy_load_error(const std::string& bytes) {
  const std::string path = temp_path("bad.npy");
  write_file(path, bytes);
  std::string message = error_of<ValueError>([&] { load_npy(path); });
  std::filesystem::remove(path);
  const std::string prefix = "[load_npy] " + path + ": ";
  EXPECT_EQ(message.substr(0, prefix.size()), prefix) << message;
  return message.substr(std::min(prefix.size(), message.size()));
}

TEST(Npy, ReadsEveryDtype) {
  test::expect_values<bool>(load_bytes(npy_file(header("|b1", "(3,)"), raw<uint8_t>({1, 0, 7}))),
                            {3}, {true, false, true});
  test::expect_values<uint8_t>(load_bytes(npy_file(header("|u1", "(2,)"), raw<uint8_t>({0, 255}))),
                               {2}, {0, 255});
  test::expect_values<int8_t>(load_bytes(npy_file(header("|i1", "(2,)"), raw<int8_t>({-128, 127}))),
                              {2}, {-128, 127});
  test::expect_values<int16_t>(load_bytes(npy_file(header("<i2", "(2,)"), raw<int16_t>({-2, 300}))),
                               {2}, {-2, 300});
  test::expect_values<int32_t>(
      load_bytes(npy_file(header("<i4", "(2,)"), raw<int32_t>({-70000, 9}))), {2}, {-70000, 9});
  test::expect_values<int64_t>(
      load_bytes(npy_file(header("<i8", "(1,)"), raw<int64_t>({-(int64_t{1} << 40)}))), {1},
      {-(int64_t{1} << 40)});
  // float16 bits: 0x3c00 = 1.0, 0xc000 = -2.0, 0x3555 = 0.333251953125
  test::expect_values<double>(
      load_bytes(npy_file(header("<f2", "(3,)"), raw<uint16_t>({0x3c00, 0xc000, 0x3555})))
          .to(kDouble),
      {3}, {1.0, -2.0, 0.333251953125});
  Tensor f4 = load_bytes(npy_file(header("<f4", "(2, 2)"), raw<float>({1.5f, -2.25f, 0, 1e30f})));
  EXPECT_EQ(f4.scalar_type(), kFloat);
  test::expect_values<float>(f4, {2, 2}, {1.5f, -2.25f, 0, 1e30f});
  test::expect_values<double>(load_bytes(npy_file(header("<f8", "(1,)"), raw<double>({0.1}))), {1},
                              {0.1});
}

TEST(Npy, ReadsVersionsOneTwoAndThree) {
  const std::string data = raw<int32_t>({1, 2, 3, 4, 5, 6});
  for (int major : {1, 2, 3}) {
    SCOPED_TRACE(major);
    Tensor t = load_bytes(npy_file(header("<i4", "(3, 2)"), data, major));
    test::expect_values<int32_t>(t, {3, 2}, {1, 2, 3, 4, 5, 6});
  }
}

TEST(Npy, FortranOrderComesBackRowMajor) {
  // Column-major (2, 3): the file holds a[0,0], a[1,0], a[0,1], a[1,1], a[0,2], a[1,2].
  Tensor t = load_bytes(npy_file(header("<i8", "(2, 3)", true), raw<int64_t>({0, 1, 2, 3, 4, 5})));
  EXPECT_TRUE(t.is_contiguous());
  test::expect_values<int64_t>(t, {2, 3}, {0, 2, 4, 1, 3, 5});
  // (2, 3, 2): element [i][j][k] is stored at i + 2 j + 6 k.
  std::vector<float> stored(12);
  for (int i = 0; i < 12; ++i) stored[i] = static_cast<float>(i);
  Tensor t3 = load_bytes(npy_file(header("<f4", "(2, 3, 2)", true), raw(stored)));
  test::expect_values<float>(t3, {2, 3, 2}, {0, 6, 2, 8, 4, 10, 1, 7, 3, 9, 5, 11});
  // One dim or none: the same bytes either way.
  test::expect_values<int16_t>(
      load_bytes(npy_file(header("<i2", "(3,)", true), raw<int16_t>({4, 5, 6}))), {3}, {4, 5, 6});
}

TEST(Npy, BigEndianIsSwapped) {
  test::expect_values<int32_t>(
      load_bytes(npy_file(header(">i4", "(2,)"), reversed_bytes(raw<int32_t>({1, -2}), 4))), {2},
      {1, -2});
  test::expect_values<double>(
      load_bytes(npy_file(header(">f8", "(2,)"), reversed_bytes(raw<double>({1.5, -0.1}), 8))), {2},
      {1.5, -0.1});
  test::expect_values<double>(
      load_bytes(npy_file(header(">f2", "(1,)"), reversed_bytes(raw<uint16_t>({0xc000}), 2)))
          .to(kDouble),
      {1}, {-2.0});
  // One-byte types may name either order.
  test::expect_values<uint8_t>(load_bytes(npy_file(header(">u1", "(1,)"), raw<uint8_t>({9}))), {1},
                               {9});
}

TEST(Npy, ScalarAndEmptyShapes) {
  Tensor scalar = load_bytes(npy_file(header("<f8", "()"), raw<double>({2.5})));
  EXPECT_EQ(scalar.dim(), 0);
  EXPECT_EQ(scalar.item<double>(), 2.5);
  Tensor empty = load_bytes(npy_file(header("<f4", "(0, 3)"), ""));
  EXPECT_EQ(empty.sizes(), (std::vector<int64_t>{0, 3}));
  EXPECT_EQ(empty.scalar_type(), kFloat);
  // Other spellings NumPy accepts: double quotes, no trailing comma, Python 2's long suffix.
  Tensor spelled = load_bytes(npy_file(
      "{\"shape\": (2L,), \"fortran_order\": False, \"descr\": \"<i2\"}", raw<int16_t>({7, 8})));
  test::expect_values<int16_t>(spelled, {2}, {7, 8});
}

TEST(Npy, WritesNumPysExactBytes) {
  // np.save(f, np.arange(6, dtype=np.float32).reshape(2, 3)), NumPy 1.24: a 128-byte header.
  const std::string dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";
  std::string expected = std::string("\x93NUMPY\x01\x00\x76\x00", 10) + dict;
  expected.append(127 - expected.size(), ' ');
  expected += '\n';
  expected += raw<float>({0, 1, 2, 3, 4, 5});
  const std::string path = temp_path("exact.npy");
  save_npy(arange(6, kFloat).reshape({2, 3}), path);
  EXPECT_EQ(read_file(path), expected);
  std::filesystem::remove(path);
}

TEST(Npy, RoundTripsEveryDtype) {
  const ScalarType dtypes[] = {kBool, kByte, kChar, kShort, kInt, kLong, kHalf, kFloat, kDouble};
  const std::string path = temp_path("round.npy");
  for (ScalarType dtype : dtypes) {
    SCOPED_TRACE(toString(dtype));
    Tensor values = (arange(12, kDouble) * 1.5 - 4).reshape({3, 4}).to(dtype);
    Tensor strided = values.t();  // not contiguous: written in its own row-major order
    save_npy(strided, path);
    Tensor back = load_npy(path);
    test::expect_same(back, strided.contiguous());
  }
  save_npy(scalar_tensor(7, kLong), path);
  Tensor scalar = load_npy(path);
  EXPECT_EQ(scalar.dim(), 0);
  EXPECT_EQ(scalar.item<int64_t>(), 7);
  save_npy(empty({4, 0, 2}, kShort), path);
  EXPECT_EQ(load_npy(path).sizes(), (std::vector<int64_t>{4, 0, 2}));
  std::filesystem::remove(path);
}

TEST(Npy, FailedSaveLeavesTheOldFile) {
  const std::string path = temp_path("kept.npy");
  save_npy(arange(3, kInt), path);
  const std::string before = read_file(path);
  EXPECT_NE(error_of<ValueError>([&] {
              save_npy(ones({2}, kBFloat16), path);
            }).find("NumPy has no bfloat16 dtype"),
            std::string::npos);
  EXPECT_NE(error_of<ValueError>([&] {
              save_npy(Tensor(), path);
            }).find("[save_npy] " + path + ": the tensor is undefined"),
            std::string::npos);
  EXPECT_EQ(read_file(path), before);
  EXPECT_NE(
      error_of([&] { save_npy(ones({2}), temp_path("no_such_dir/x.npy")); }).find("cannot create"),
      std::string::npos);
  std::filesystem::remove(path);
}

TEST(Npy, RefusesMalformedFiles) {
  const std::string two_floats = raw<float>({1, 2});
  const auto contains = [](const std::string& message, const std::string& part) {
    EXPECT_NE(message.find(part), std::string::npos) << message;
  };
  contains(npy_load_error("\x93NUM"), "too short (4 bytes) to be a .npy file");
  contains(npy_load_error("PK\x03\x04xxxxxxxxxxxx"), "not a .npy file");
  contains(npy_load_error(npy_file(header("<f4", "(2,)"), two_floats, 4)),
           "unsupported .npy format version 4.0");
  std::string long_header = npy_file(header("<f4", "(2,)"), two_floats);
  long_header[8] = '\xff';  // header length 0x..ff: past the end
  contains(npy_load_error(long_header), "runs past the end of the input");
  contains(npy_load_error(npy_file(std::string(10001, ' '), "", 2)),
           "header length 10001 exceeds NumPy's limit of 10000 bytes");
  contains(npy_load_error(npy_file(header("<f4", "(2,)"), two_floats.substr(0, 5))),
           "truncated: shape (2,) of '<f4' needs 8 bytes of data, the input has 5");
  contains(npy_load_error(npy_file(header("<f4", "(2,)"), two_floats + "x")),
           "1 unexpected bytes after the array's 8 bytes of data");
  contains(npy_load_error(npy_file(header("|O", "(2,)"), two_floats)),
           "object arrays (dtype '|O') hold Python objects");
  contains(npy_load_error(npy_file(
               "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,)}", two_floats)),
           "structured dtypes (a list of fields as 'descr') are not supported");
  contains(npy_load_error(npy_file(header("<u4", "(2,)"), two_floats)), "unsupported dtype '<u4'");
  contains(npy_load_error(npy_file(header("|f4", "(2,)"), two_floats)), "unsupported dtype '|f4'");
  contains(npy_load_error(npy_file(header("<f4", "(1099511627776, 1099511627776)"), "")),
           "is too large for an ember tensor");
  contains(npy_load_error(npy_file(header("<f4", "(99999999999999999999,)"), "")),
           "integer out of range");
  contains(npy_load_error(npy_file(header("<f4", "(2)"), two_floats)),
           "a one-element shape is written (n,)");
  contains(npy_load_error(npy_file(header("<f4", "(-2,)"), two_floats)),
           "expected a non-negative integer");
  contains(npy_load_error(npy_file("{'descr': '<f4', 'shape': (2,)}", two_floats)),
           "missing key 'fortran_order'");
  contains(npy_load_error(npy_file("{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, "
                                   "'shape': (2,)}",
                                   two_floats)),
           "duplicate key 'descr'");
  contains(
      npy_load_error(npy_file("{'descr': '<f4', 'fortran_order': 0, 'shape': (2,)}", two_floats)),
      "invalid header at character 34: expected True or False");
  contains(npy_load_error(npy_file(
               "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'x': 1}", two_floats)),
           "unexpected key 'x'");
  contains(npy_load_error(
               npy_file("{'descr': '<f4', 'fortran_order': False, 'shape': (2,)} x", two_floats)),
           "unexpected characters after the dictionary");
  contains(npy_load_error(npy_file("{'descr': '<f4", two_floats)), "unterminated string");
  EXPECT_NE(error_of([] { load_npy(temp_path("missing.npy")); }).find("cannot open for reading"),
            std::string::npos);
}

TEST(Npz, RoundTripsStoredAndCompressed) {
  StateDict arrays;
  arrays.insert("weight", (arange(12, kFloat) / 4).reshape({3, 4}).t());
  arrays.insert("layer.bias", tensor({-1, 2}, kShort));
  arrays.insert("mask", tensor({true, false}));
  arrays.insert("step", scalar_tensor(3, kLong));
  arrays.insert("zeros", zeros({256}, kDouble));
  const std::string stored = temp_path("stored.npz"), deflated = temp_path("deflated.npz");
  save_npz(arrays, stored);
  save_npz(arrays, deflated, /*compressed=*/true);
  EXPECT_LT(read_file(deflated).size() + 1000, read_file(stored).size()) << "not deflated";
  for (const std::string& path : {stored, deflated}) {
    SCOPED_TRACE(path);
    StateDict back = load_npz(path);
    ASSERT_EQ(back.keys(), arrays.keys());
    for (const auto& [name, t] : arrays) test::expect_same(*back.find(name), t.contiguous());
    std::filesystem::remove(path);
  }
  save_npz(StateDict(), stored);
  EXPECT_TRUE(load_npz(stored).empty());
  std::filesystem::remove(stored);
}

TEST(Npz, RefusesWhatIsNotAnArchiveOfArrays) {
  const auto archive_with = [](const std::string& record, const std::string& bytes) {
    io::ZipWriter zip("[test] ");
    zip.add(record, bytes);
    std::vector<char> archive = zip.finish();
    const std::string path = temp_path("bad.npz");
    write_file(path, std::string(archive.data(), archive.size()));
    return path;
  };
  const std::string good = npy_file(header("<i2", "(1,)"), raw<int16_t>({5}));
  std::string path = archive_with("readme.txt", "hello");
  EXPECT_NE(error_of<ValueError>([&] {
              load_npz(path);
            }).find("[load_npz] " + path + ": record 'readme.txt' is not an array"),
            std::string::npos);
  path = archive_with("w.npy", good.substr(0, good.size() - 1));
  EXPECT_NE(error_of<ValueError>([&] {
              load_npz(path);
            }).find("[load_npz] " + path + ": record 'w.npy': truncated: shape (1,) of '<i2'"),
            std::string::npos);
  write_file(path, good);  // a .npy file is no zip archive
  EXPECT_NE(error_of<ValueError>([&] { load_npz(path); }).find("cannot read it as a zip archive"),
            std::string::npos);
  std::filesystem::remove(path);

  StateDict with_bf16;
  with_bf16.insert("h", ones({2}, kBFloat16));
  EXPECT_NE(error_of<ValueError>([&] {
              save_npz(with_bf16, path);
            }).find("[save_npz] " + path + ": array 'h': NumPy has no bfloat16 dtype"),
            std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(path));
}

}  // namespace
}  // namespace ember
