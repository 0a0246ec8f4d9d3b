// RecentValues: the last N values pushed, readable oldest first as one contiguous span, in fixed
// memory (statistics that must not grow with the run's length).
#pragma once
#include <cstddef>
#include <memory>
#include <span>

namespace voxnav::detail {

template <class T, std::size_t N>
class RecentValues {
  static_assert(N > 0);

 public:
  /// Keeps `v`; once N values are kept, the oldest is dropped.
  void push(T v) {
    // Each value is written twice, at i and i + N, so the last N values always lie contiguous
    // in buf_[head_ .. head_ + N) (oldest first) without moving anything.
    if (!buf_) buf_ = std::make_unique<T[]>(2 * N);
    const std::size_t i = (head_ + size_) % N;
    buf_[i] = v;
    buf_[i + N] = v;
    if (size_ < N)
      ++size_;
    else
      head_ = (head_ + 1) % N;
  }
  /// The kept values, oldest first (at most N).
  std::span<const T> values() const {
    return buf_ ? std::span<const T>(buf_.get() + head_, size_) : std::span<const T>();
  }
  std::size_t size() const { return size_; }
  static constexpr std::size_t capacity() { return N; }

 private:
  std::unique_ptr<T[]> buf_;  // 2 * N once the first value is pushed
  std::size_t head_ = 0;      // index of the oldest kept value
  std::size_t size_ = 0;
};

}  // namespace voxnav::detail
