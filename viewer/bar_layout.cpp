#include "viewer/bar_layout.h"

#include <algorithm>

namespace rl::viewer {

BarLayout bar_layout(float x, float width, float name_w, float text_w, double longest,
                     double at_least) {
  BarLayout b;
  b.bar_x = x + name_w + 16.f;
  b.full = std::max(40.f, width - name_w - 16.f - 8.f - text_w - 8.f);
  b.scale = std::max({longest, at_least, 1e-300});
  return b;
}

}  // namespace rl::viewer
