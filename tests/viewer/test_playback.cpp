#include <catch2/catch.hpp>

#include "viewer/playback.h"

using rl::viewer::Playback;

TEST_CASE("play advances at the set speed and stops at the end", "[playback]") {
  Playback p(4);
  p.set_speed(2);  // a frame every 0.5 s
  REQUIRE(p.frame() == 0);
  REQUIRE(!p.update(1.0));  // paused: nothing happens
  p.play();
  REQUIRE(p.playing());
  REQUIRE(!p.update(0.25));
  REQUIRE(p.progress() == Approx(0.5));
  REQUIRE(p.update(0.25));
  REQUIRE(p.frame() == 1);
  p.update(10);
  REQUIRE(p.frame() == 3);
  REQUIRE(!p.playing());
  REQUIRE(p.at_end());
  p.play();  // from the end: starts over
  REQUIRE(p.frame() == 0);
}

TEST_CASE("step, scrub and clamp", "[playback]") {
  Playback p(5);
  p.step_back();
  REQUIRE(p.frame() == 0);
  p.step_forward();
  p.step_forward();
  REQUIRE(p.frame() == 2);
  p.play();
  p.step_forward();
  REQUIRE(!p.playing());  // stepping pauses
  p.scrub(99);
  REQUIRE(p.frame() == 4);
  p.scrub(-3);
  REQUIRE(p.frame() == 0);
  p.set_frame_count(0);
  REQUIRE(p.frame_count() == 1);
  p.set_speed(-5);
  REQUIRE(p.speed() == Approx(0.1));
  p.set_speed(1e9);
  REQUIRE(p.speed() == 120);
}

TEST_CASE("looping wraps around", "[playback]") {
  Playback p(3);
  p.set_loop(true);
  p.set_speed(10);
  p.play();
  p.update(0.35);  // three frames later: 0 -> 1 -> 2 -> 0
  REQUIRE(p.frame() == 0);
  REQUIRE(p.playing());
}
