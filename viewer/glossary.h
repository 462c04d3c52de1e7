#pragma once
// The course's glossary (lessons/GLOSSARY.md, compiled into the viewer): what a counter's words
// mean, shown when the pointer rests on a counter that names one. One file is the source for the
// lessons and the viewer alike.
#include <regex>
#include <string>
#include <string_view>
#include <vector>

namespace rl::viewer {

struct GlossaryEntry {
  std::string term;     // "long scoreboard"
  std::regex pattern;   // what names it in a text (the table's second column; case ignored)
  int lesson = 0;       // the lesson that teaches it
  std::string meaning;  // one or two sentences
};

// The rows of a glossary table in Markdown: | term | `pattern` | NN | meaning |.
std::vector<GlossaryEntry> parse_glossary(std::string_view markdown);

// lessons/GLOSSARY.md as this build compiled it in.
const std::vector<GlossaryEntry>& course_glossary();

// For each entry that `text` names, once and in the glossary's order: "term (lesson NN): meaning",
// one a line; empty when it names none.
std::string glossary_notes(std::string_view text, const std::vector<GlossaryEntry>& entries);

}  // namespace rl::viewer
