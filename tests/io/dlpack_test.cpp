// Tests for ember/dlpack.h: toDLPack / fromDLPack share memory both ways, keep strides and
// offsets, honour the deleter contract, carry every dtype, and refuse what ember cannot hold.
#include <dlpack/dlpack.h>

#include <cstdint>
#include <vector>

#include "ember/ember.h"
#include "test_util.h"

namespace ember {
namespace {

using test::error_of;

// A producer's tensor over a caller-owned buffer whose deleter counts its calls.
struct CountingProducer {
  int64_t shape[3] = {};
  int64_t strides[3] = {};
  int deletes = 0;
  DLManagedTensor managed{};

  CountingProducer(const CountingProducer&) = delete;
  CountingProducer& operator=(const CountingProducer&) = delete;
  CountingProducer(void* data, DLDataType dtype, std::vector<int64_t> sizes,
                   std::vector<int64_t> strides_or_empty, uint64_t byte_offset = 0) {
    DLTensor& dl = managed.dl_tensor;
    dl.data = data;
    dl.device = DLDevice{kDLCPU, 0};
    dl.ndim = static_cast<int>(sizes.size());
    dl.dtype = dtype;
    for (size_t i = 0; i < sizes.size(); ++i) shape[i] = sizes[i];
    for (size_t i = 0; i < strides_or_empty.size(); ++i) strides[i] = strides_or_empty[i];
    dl.shape = shape;
    dl.strides = strides_or_empty.empty() ? nullptr : strides;
    dl.byte_offset = byte_offset;
    managed.manager_ctx = this;
    managed.deleter = [](DLManagedTensor* self) {
      ++static_cast<CountingProducer*>(self->manager_ctx)->deletes;
    };
  }
};

constexpr DLDataType kDLFloat32{kDLFloat, 32, 1};

// fromDLPack refuses `p` with a message containing `expected`, and leaves it to its owner.
void expect_refused(CountingProducer& p, const std::string& expected) {
  std::string message = error_of([&] { fromDLPack(&p.managed); });
  EXPECT_NE(message.find(expected), std::string::npos) << message;
  EXPECT_EQ(p.deletes, 0) << "a refused tensor stays the caller's: " << expected;
}

TEST(DLPack, ExportDescribesTheTensor) {
  Tensor t = arange(6, kFloat).reshape({2, 3});
  DLManagedTensor* m = toDLPack(t);
  const DLTensor& dl = m->dl_tensor;
  EXPECT_EQ(dl.data, t.data_ptr());
  EXPECT_EQ(dl.byte_offset, 0u);
  EXPECT_EQ(dl.device.device_type, kDLCPU);
  EXPECT_EQ(dl.device.device_id, 0);
  EXPECT_EQ(dl.ndim, 2);
  EXPECT_EQ(std::vector<int64_t>(dl.shape, dl.shape + 2), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(std::vector<int64_t>(dl.strides, dl.strides + 2), (std::vector<int64_t>{3, 1}));
  EXPECT_EQ(dl.dtype.code, kDLFloat);
  EXPECT_EQ(dl.dtype.bits, 32);
  EXPECT_EQ(dl.dtype.lanes, 1);
  m->deleter(m);
}

TEST(DLPack, RoundTripSharesMemory) {
  Tensor t = arange(6, kFloat).reshape({2, 3});
  Tensor u = fromDLPack(toDLPack(t));
  EXPECT_EQ(u.data_ptr(), t.data_ptr());
  EXPECT_EQ(u.sizes(), t.sizes());
  EXPECT_EQ(u.strides(), t.strides());
  u[1][2] = 50.0;  // writes land in t's memory, and the other way round
  t[0][0] = -1.0;
  test::expect_values<float>(t, {2, 3}, {-1, 1, 2, 3, 4, 50});
  test::expect_values<float>(u, {2, 3}, {-1, 1, 2, 3, 4, 50});
}

TEST(DLPack, ViewsKeepStridesAndOffsets) {
  Tensor base = arange(24, kLong).reshape({4, 6});
  Tensor v = base.narrow(1, 1, 4).t();  // sizes [4, 4], strides [1, 6], offset 1
  DLManagedTensor* m = toDLPack(v);
  EXPECT_EQ(m->dl_tensor.data, v.data_ptr());
  EXPECT_EQ(std::vector<int64_t>(m->dl_tensor.strides, m->dl_tensor.strides + 2),
            (std::vector<int64_t>{1, 6}));
  Tensor u = fromDLPack(m);
  EXPECT_EQ(u.data_ptr(), v.data_ptr());
  EXPECT_EQ(u.strides(), (std::vector<int64_t>{1, 6}));
  test::expect_values<int64_t>(u, {4, 4},
                               {1, 7, 13, 19, 2, 8, 14, 20, 3, 9, 15, 21, 4, 10, 16, 22});
}

TEST(DLPack, ImportHonoursByteOffsetAndNullStrides) {
  std::vector<float> buf = {0, 1, 2, 3, 4, 5, 6, 7};
  CountingProducer strided(buf.data(), kDLFloat32, {3}, {2}, /*byte_offset=*/8);
  Tensor t = fromDLPack(&strided.managed);
  EXPECT_EQ(t.data_ptr(), buf.data() + 2);
  test::expect_values<float>(t, {3}, {2, 4, 6});

  CountingProducer compact(buf.data(), kDLFloat32, {2, 2}, {}, /*byte_offset=*/16);
  Tensor c = fromDLPack(&compact.managed);
  EXPECT_EQ(c.strides(), (std::vector<int64_t>{2, 1}));
  test::expect_values<float>(c, {2, 2}, {4, 5, 6, 7});
}

TEST(DLPack, ProducerDeleterRunsOnceAfterTheLastTensor) {
  std::vector<float> buf = {1, 2, 3, 4};
  CountingProducer producer(buf.data(), kDLFloat32, {4}, {1});
  Tensor t = fromDLPack(&producer.managed);
  Tensor view = t.slice(0, 1, 3);
  Tensor alias = t;
  t = Tensor();
  alias = Tensor();
  EXPECT_EQ(producer.deletes, 0) << "a view still uses the memory";
  test::expect_values<float>(view, {2}, {2, 3});
  view = Tensor();
  EXPECT_EQ(producer.deletes, 1);
}

TEST(DLPack, ExportKeepsTheStorageAliveUntilItsDeleter) {
  DLManagedTensor* m = nullptr;
  {
    Tensor t = arange(4, kDouble) * 2.5;
    m = toDLPack(t);
  }  // the last ember handle is gone; the DLManagedTensor still holds the storage
  const auto* data = static_cast<const double*>(m->dl_tensor.data);
  EXPECT_EQ(std::vector<double>(data, data + 4), (std::vector<double>{0, 2.5, 5, 7.5}));
  m->deleter(m);
}

TEST(DLPack, CustomDeleterReplacesTheProducers) {
  std::vector<int32_t> buf = {7, 8, 9};
  CountingProducer producer(buf.data(), DLDataType{kDLInt, 32, 1}, {3}, {1});
  void* released = nullptr;
  int calls = 0;
  {
    Tensor t = fromDLPack(&producer.managed, [&](void* p) {
      released = p;
      ++calls;
    });
    test::expect_values<int32_t>(t, {3}, {7, 8, 9});
  }
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(released, buf.data());
  EXPECT_EQ(producer.deletes, 0);
}

TEST(DLPack, EveryDtype) {
  const std::vector<std::pair<ScalarType, DLDataType>> cases = {
      {kByte, {kDLUInt, 8, 1}},        {kChar, {kDLInt, 8, 1}},     {kShort, {kDLInt, 16, 1}},
      {kInt, {kDLInt, 32, 1}},         {kLong, {kDLInt, 64, 1}},    {kHalf, {kDLFloat, 16, 1}},
      {kBFloat16, {kDLBfloat, 16, 1}}, {kFloat, {kDLFloat, 32, 1}}, {kDouble, {kDLFloat, 64, 1}},
  };
  for (const auto& [dtype, dl_type] : cases) {
    SCOPED_TRACE(toString(dtype));
    Tensor t = arange(5, kDouble).to(dtype);
    DLManagedTensor* m = toDLPack(t);
    EXPECT_EQ(m->dl_tensor.dtype.code, dl_type.code);
    EXPECT_EQ(m->dl_tensor.dtype.bits, dl_type.bits);
    Tensor u = fromDLPack(m);
    EXPECT_EQ(u.scalar_type(), dtype);
    EXPECT_EQ(u.data_ptr(), t.data_ptr());
    test::expect_values<double>(u.to(kDouble), {5}, {0, 1, 2, 3, 4});
  }
}

TEST(DLPack, BoolTravelsAsUInt8AndReturnsFromCodeSix) {
  Tensor flags = tensor({true, false, true});
  DLManagedTensor* m = toDLPack(flags);  // Note [Bool in DLPack]: DLPack 0.6 has no bool
  EXPECT_EQ(m->dl_tensor.dtype.code, kDLUInt);
  EXPECT_EQ(m->dl_tensor.dtype.bits, 8);
  Tensor as_bytes = fromDLPack(m);
  EXPECT_EQ(as_bytes.scalar_type(), kByte);
  test::expect_values<uint8_t>(as_bytes, {3}, {1, 0, 1});

  bool buf[2] = {false, true};
  CountingProducer producer(buf, DLDataType{6, 8, 1}, {2}, {1});  // DLPack 0.8's kDLBool
  Tensor b = fromDLPack(&producer.managed);
  EXPECT_EQ(b.scalar_type(), kBool);
  test::expect_values<bool>(b, {2}, {false, true});
}

TEST(DLPack, Cuda) {
  EMBER_SKIP_IF_NO_CUDA();
  Tensor t = arange(6, TensorOptions().dtype(kFloat).device(Device::cuda(0))).reshape({3, 2});
  DLManagedTensor* m = toDLPack(t.t());
  EXPECT_EQ(m->dl_tensor.device.device_type, kDLCUDA);
  EXPECT_EQ(m->dl_tensor.device.device_id, 0);
  Tensor u = fromDLPack(m);
  EXPECT_EQ(u.device(), Device::cuda(0));
  EXPECT_EQ(u.data_ptr(), t.data_ptr());
  u.mul_(2);  // queued on ember's stream; the storage's release waits for it
  test::expect_values<float>(u.cpu(), {2, 3}, {0, 4, 8, 2, 6, 10});
  test::expect_values<float>(t.cpu(), {3, 2}, {0, 2, 4, 6, 8, 10});
}

TEST(DLPack, Errors) {
  EXPECT_NE(error_of([] {
              fromDLPack(static_cast<DLManagedTensor*>(nullptr));
            }).find("[fromDLPack] the DLManagedTensor is a null pointer"),
            std::string::npos);
  EXPECT_NE(error_of([] { toDLPack(Tensor()); }).find("[toDLPack] called on an undefined tensor"),
            std::string::npos);

  float buf[4] = {};
  CountingProducer lanes(buf, DLDataType{kDLFloat, 32, 4}, {1}, {1});
  expect_refused(lanes, "vector types (lanes = 4) are not supported");
  CountingProducer complex(buf, DLDataType{kDLComplex, 64, 1}, {1}, {1});
  expect_refused(complex, "unsupported DLPack dtype (code 5, 64 bits)");
  CountingProducer uint16(buf, DLDataType{kDLUInt, 16, 1}, {1}, {1});
  expect_refused(uint16, "unsupported DLPack dtype (code 1, 16 bits)");
  CountingProducer negative(buf, kDLFloat32, {2}, {-1});
  expect_refused(negative, "[fromDLPack] negative strides are not supported");
  CountingProducer null_data(nullptr, kDLFloat32, {2}, {1});
  expect_refused(null_data, "[fromDLPack] data is a null pointer");
  CountingProducer opencl(buf, kDLFloat32, {2}, {1});
  opencl.managed.dl_tensor.device = DLDevice{kDLOpenCL, 0};
  expect_refused(opencl, "unsupported DLPack device type 4");
  CountingProducer too_many_dims(buf, kDLFloat32, {1}, {1});
  too_many_dims.managed.dl_tensor.ndim = 65;
  expect_refused(too_many_dims, "[fromDLPack] ndim 65 is out of range");
  CountingProducer null_shape(buf, kDLFloat32, {1}, {1});
  null_shape.managed.dl_tensor.shape = nullptr;
  expect_refused(null_shape, "[fromDLPack] shape is a null pointer");

  if (!cuda::built_with_cuda()) {  // a GPU tensor in a CPU-only build: the CUDA devices' error
    CountingProducer gpu(buf, kDLFloat32, {4}, {1});
    gpu.managed.dl_tensor.device = DLDevice{kDLCUDA, 0};
    expect_refused(gpu, "built without CUDA support");
  }
}

}  // namespace
}  // namespace ember
