#pragma once
// An exercise's questions, graded. The student writes each prediction into the exercise's answers
// file (lessons/NN_slug/exercise/answers_NN.txt: one `key = value` line a question, `#` starts a
// comment); `NN_slug --check-answers FILE` derives every answer itself, from the course's own code
// and data (a plan's passes, the figures of the course's committed traces, its committed GPU
// results), and says which are right and which are wrong, with a nudge, never the value.
#include <functional>
#include <ostream>
#include <string>
#include <vector>

namespace rl {

struct Question {
  std::string key;    // "grids_b256": letters, digits and '_'
  std::string nudge;  // said when the answer is wrong: what to look at again
  // The right answer as text, derived from the course's own code and committed data (never from
  // the kernel this build compiled, which may be a student's).
  std::function<std::string()> answer;
  // Whether `given` answers it, `right` being answer()'s text; where empty, the same words (case,
  // spaces and commas aside).
  std::function<bool(const std::string& given, const std::string& right)> same;
};

// The words of an answer: split at spaces and commas, lower case ("256, 128" -> {"256", "128"}).
std::vector<std::string> answer_words(const std::string& text);

// Reads the answers file at `path` and checks every question against it: prints one line a
// question that is not right (wrong, with its nudge; or not answered) and a last line `answers: K
// of N right` (only `answers: none given yet` where every answer is blank). Returns 0 when every answer is right, 1 otherwise. A file that cannot be read, a line
// that is not `key = value`, a key no question has or one given twice is a UsageError (one line,
// before anything is derived).
int check_answers(std::ostream& out, const std::string& path,
                  const std::vector<Question>& questions);

}  // namespace rl
