// The strong Wolfe line search, step by step as torch/optim/lbfgs.py's _strong_wolfe.
#include "optim/strong_wolfe.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>

#include "ember/ops.h"

namespace ember::optim {
namespace {

// The minimiser of the cubic through (x1, f1) and (x2, f2) with slopes g1 and g2, clamped to the
// bounds (by default the interval between x1 and x2); their midpoint if the cubic has none.
double cubic_interpolate(double x1, double f1, double g1, double x2, double f2, double g2,
                         std::optional<std::pair<double, double>> bounds = std::nullopt) {
  const auto [xmin_bound, xmax_bound] =
      bounds ? *bounds : (x1 <= x2 ? std::make_pair(x1, x2) : std::make_pair(x2, x1));
  const double d1 = g1 + g2 - 3 * (f1 - f2) / (x1 - x2);
  const double d2_square = d1 * d1 - g1 * g2;
  if (d2_square < 0) return (xmin_bound + xmax_bound) / 2.;
  const double d2 = std::sqrt(d2_square);
  const double min_pos = x1 <= x2 ? x2 - (x2 - x1) * ((g2 + d2 - d1) / (g2 - g1 + 2 * d2))
                                  : x1 - (x1 - x2) * ((g1 + d2 - d1) / (g1 - g2 + 2 * d2));
  return std::min(std::max(min_pos, xmin_bound), xmax_bound);
}

// One end of the bracket: a step length with its loss, gradient and directional derivative.
struct Point {
  double t, f;
  Tensor g;
  double gtd;
};

}  // namespace

LineSearchResult strong_wolfe(const DirectionalEvaluate& evaluate, double t, const Tensor& d,
                              double f, const Tensor& g, double gtd, double c1, double c2,
                              double tolerance_change, int max_ls) {
  const double d_norm = d.abs().max().item<double>();
  auto [f_new, g_new] = evaluate(t);
  int64_t func_evals = 1;
  double gtd_new = g_new.dot(d).item<double>();

  // Bracketing: an interval containing a point that satisfies the conditions, or the point.
  Point prev{0, f, g.clone(), gtd};
  std::array<Point, 2> bracket;
  size_t bracket_size = 2;
  bool done = false;
  int ls_iter = 0;
  for (; ls_iter < max_ls; ++ls_iter) {
    const bool too_high = f_new > f + c1 * t * gtd || (ls_iter > 1 && f_new >= prev.f);
    if (!too_high && std::abs(gtd_new) <= -c2 * gtd) {
      bracket[0] = Point{t, f_new, g_new, gtd_new};
      bracket_size = 1;
      done = true;
      break;
    }
    if (too_high || gtd_new >= 0) {  // past a minimum: it lies between the last two steps
      bracket = {prev, Point{t, f_new, g_new.clone(), gtd_new}};
      break;
    }
    // Extrapolate: between 1.01 t and 10 t.
    const double next_t = cubic_interpolate(prev.t, prev.f, prev.gtd, t, f_new, gtd_new,
                                            std::make_pair(t + 0.01 * (t - prev.t), t * 10));
    prev = Point{t, f_new, g_new.clone(), gtd_new};
    t = next_t;
    std::tie(f_new, g_new) = evaluate(t);
    ++func_evals;
    gtd_new = g_new.dot(d).item<double>();
  }
  if (ls_iter == max_ls) bracket = {Point{0, f, g, gtd}, Point{t, f_new, g_new, gtd_new}};

  // Zoom: shrink the bracket until a point satisfies the conditions.
  auto order = [&] { return bracket[0].f <= bracket[bracket_size - 1].f ? 0 : 1; };
  size_t low = order(), high = 1 - low;
  bool insufficient_progress = false;
  while (!done && ls_iter < max_ls) {
    if (std::abs(bracket[1].t - bracket[0].t) * d_norm < tolerance_change) break;  // too small
    t = cubic_interpolate(bracket[0].t, bracket[0].f, bracket[0].gtd, bracket[1].t, bracket[1].f,
                          bracket[1].gtd);
    // Near an end of the bracket twice in a row, or outside it: move to 10% inside.
    const double hi = std::max(bracket[0].t, bracket[1].t),
                 lo = std::min(bracket[0].t, bracket[1].t);
    const double eps = 0.1 * (hi - lo);
    if (std::min(hi - t, t - lo) < eps) {
      if (insufficient_progress || t >= hi || t <= lo) {
        t = std::abs(t - hi) < std::abs(t - lo) ? hi - eps : lo + eps;
        insufficient_progress = false;
      } else {
        insufficient_progress = true;
      }
    } else {
      insufficient_progress = false;
    }
    std::tie(f_new, g_new) = evaluate(t);
    ++func_evals;
    gtd_new = g_new.dot(d).item<double>();
    ++ls_iter;

    if (f_new > f + c1 * t * gtd || f_new >= bracket[low].f) {
      // Not a sufficient decrease, or not below the low end: the new high end.
      bracket[high] = Point{t, f_new, g_new.clone(), gtd_new};
      low = order();
      high = 1 - low;
      continue;
    }
    if (std::abs(gtd_new) <= -c2 * gtd) {
      done = true;  // the Wolfe conditions hold
    } else if (gtd_new * (bracket[high].t - bracket[low].t) >= 0) {
      bracket[high] = bracket[low];  // the old low end becomes the high end
    }
    bracket[low] = Point{t, f_new, g_new.clone(), gtd_new};
  }
  return {bracket[low].f, bracket[low].g, bracket[low].t, func_evals};
}

}  // namespace ember::optim
