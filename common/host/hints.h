#pragma once
// The graded hints of a lesson's exercise, lessons/NN_slug/exercise/HINTS.md: sections headed
// "## Hint 1", "## Hint 2", ..., from a nudge to nearly the answer.
#include <optional>
#include <string>
#include <string_view>

namespace rl {

// The hints file of lesson `number` in this source tree (lessons/NN_*/exercise/HINTS.md).
std::string hints_path(int number);

// How many "## Hint K" sections the text has, and the body of section k (1-based), trimmed.
unsigned hint_count(std::string_view markdown);
std::optional<std::string> hint_text(std::string_view markdown, unsigned k);

// Prints hint k of lesson `number`; throws UsageError when there is no such hint or file.
void print_hint(std::ostream& out, int number, unsigned k);

}  // namespace rl
