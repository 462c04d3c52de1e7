#pragma once
// The graded hints of a lesson's exercise, lessons/NN_slug/exercise/HINTS.md: sections headed
// "## Hint 1", "## Hint 2", ..., from a nudge to nearly the answer.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rl {

// The hints file of lesson `number` in this source tree (lessons/NN_*/exercise/HINTS.md).
std::string hints_path(int number);

// How many "## Hint K" sections the text has, and the body of section k (1-based), trimmed, without
// HTML comments (where the grader's tags live).
unsigned hint_count(std::string_view markdown);
std::optional<std::string> hint_text(std::string_view markdown, unsigned k);

// The hint that matches a kind of bug: the first section tagged for it with a comment such as
// `<!-- grader: race barrier -->`; else the first whose text names one of `keywords` (case does not
// matter); else hint 1. 0 when the text has no hints.
unsigned matching_hint(std::string_view markdown, std::string_view tag,
                       const std::vector<std::string_view>& keywords);

// Prints hint k of lesson `number`; throws UsageError when there is no such hint or file.
void print_hint(std::ostream& out, int number, unsigned k);

}  // namespace rl
