// Deterministic math for the integrator: only IEEE +, -, *, / in a fixed order, so results are
// bit-identical on every platform (libm's exp/sin/cos may differ between glibc and Emscripten).
#pragma once
#include <cstdint>

namespace voxnav::detail {

/// exp(-a) for a >= 0 (1 for a <= 0 or NaN, 0 for a > 700). Halves `a` until it is at most 1/64,
/// sums the Taylor series to degree 10, then squares back. Relative error below ~1e-13.
inline double det_exp_neg(double a) {
  if (!(a > 0.0)) return 1.0;
  if (a > 700.0) return 0.0;
  int halvings = 0;
  double r = a;
  while (r > 0.015625) {
    r *= 0.5;
    ++halvings;
  }
  double term = 1.0, sum = 1.0;
  for (int k = 1; k <= 10; ++k) {
    term = term * (-r) / static_cast<double>(k);
    sum = sum + term;
  }
  for (int i = 0; i < halvings; ++i) sum = sum * sum;
  return sum;
}

/// Sine and cosine of a 16-bit binary angle (65536 = one turn). Quadrant by integer bits, then
/// Taylor series on [0, pi/2) evaluated in a fixed order. Exact at multiples of a quarter turn.
struct SinCos {
  double sin = 0.0, cos = 1.0;
};

inline SinCos det_sin_cos(std::uint16_t angle) {
  constexpr double kHalfPi = 1.57079632679489661923;
  const int quadrant = angle >> 14;
  const double t = static_cast<double>(angle & 0x3FFF) * (kHalfPi / 16384.0);
  const double t2 = t * t;
  // sin t = t - t^3/3! + ... ; cos t = 1 - t^2/2! + ... (to degree 21 / 22)
  double s_term = t, s = t, c_term = 1.0, c = 1.0;
  for (int k = 1; k <= 11; ++k) {
    s_term = -s_term * t2 / static_cast<double>((2 * k) * (2 * k + 1));
    s = s + s_term;
    c_term = -c_term * t2 / static_cast<double>((2 * k - 1) * (2 * k));
    c = c + c_term;
  }
  SinCos r;
  switch (quadrant) {
    case 0:
      r = {s, c};
      break;
    case 1:
      r = {c, -s};
      break;
    case 2:
      r = {-s, -c};
      break;
    default:
      r = {-c, s};
      break;
  }
  r.sin = r.sin + 0.0;  // turn -0 into +0 so hashes of results never see a signed zero
  r.cos = r.cos + 0.0;
  return r;
}

}  // namespace voxnav::detail
