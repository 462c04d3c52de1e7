#pragma once
// The sentence over a step figure, as phrases that are never cut: "step 9 of 16, in launch 1",
// "line 21: 16 threads add", "1 warp of 1 diverges", "no bank conflict", and the lines they fill
// at a given width, broken only between phrases. Pure: no ImGui, unit-tested.
#include <string>
#include <vector>

#include "common/trace/trace_model.h"
#include "viewer/steps.h"

namespace rl::viewer {

std::vector<std::string> step_phrases(const Trace& t, const StepIndex& steps, int step);

inline constexpr const char* kPhraseSeparator = "  |  ";

// Greedy: as many whole phrases per line as fit `width` px of the default font (phrases joined by
// `separator`); a phrase longer than a line has a line of its own.
std::vector<std::string> wrap_phrases(const std::vector<std::string>& phrases, float width,
                                      const char* separator = kPhraseSeparator);

// A sentence cut into phrases after each "; " and before each ", in " / ", at " (so that it wraps
// between its parts): "thread 5 read partial[37] at line 27;", "thread 37 wrote it ...".
std::vector<std::string> sentence_phrases(const std::string& sentence);

}  // namespace rl::viewer
