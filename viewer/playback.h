#pragma once
// Play / pause / step / scrub over the frames of a trace (one frame per (launch, level)). Pure
// state machine with an explicit clock, so it is unit-tested.
namespace rl::viewer {

class Playback {
 public:
  explicit Playback(int frame_count = 1) { set_frame_count(frame_count); }

  void set_frame_count(int n);  // keeps the current frame when still valid
  int frame_count() const { return count_; }
  int frame() const { return frame_; }
  // 0..1: how far the animation into the current frame has come (new nodes fade in).
  double progress() const { return progress_; }
  bool playing() const { return playing_; }
  bool at_end() const { return frame_ == count_ - 1; }
  double speed() const { return speed_; }  // frames per second
  bool looping() const { return loop_; }

  void play();  // from the start again when at the end
  void pause() { playing_ = false; }
  void toggle() { playing_ ? pause() : play(); }
  void step_forward();
  void step_back();
  void scrub(int frame);  // clamps; pauses
  void first() { scrub(0); }
  void last() { scrub(count_ - 1); }
  void set_speed(double frames_per_second);  // clamped to [0.1, 120]
  void set_loop(bool loop) { loop_ = loop; }

  // Advances the clock by dt seconds; returns true when the frame changed.
  bool update(double dt);

 private:
  int count_ = 1;
  int frame_ = 0;
  double progress_ = 1.0;
  double clock_ = 0.0;  // seconds into the current frame
  double speed_ = 2.0;
  bool playing_ = false;
  bool loop_ = false;
};

}  // namespace rl::viewer
