#pragma once
// Horizontal bars with a name on the left and a figure after each bar: how long a bar may be so
// that the longest bar, with its figure after it, ends inside the width (nothing clipped). Pure.
namespace rl::viewer {

struct BarLayout {
  float bar_x = 0;   // where bars start
  float full = 0;    // px for `scale`
  double scale = 1;  // the value drawn `full` px long
};

// width: all of it; name_w: the widest name; text_w: the widest figure after a bar; longest: the
// largest value (the scale is max(longest, at_least)).
BarLayout bar_layout(float x, float width, float name_w, float text_w, double longest,
                     double at_least);

}  // namespace rl::viewer
