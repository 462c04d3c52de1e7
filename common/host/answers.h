#pragma once
// An exercise's questions, graded. The student writes each prediction into the exercise's answers
// file (lessons/NN_slug/exercise/answers_NN.txt: one `key = value` line a question, `#` starts a
// comment); `NN_slug --check-answers FILE` derives every answer itself, from the course's own code
// and data (a plan's passes, the figures of the course's committed traces, its committed GPU
// results), and says which are right and which are wrong, with a nudge, never the value.
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

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

// The course's committed data a question derives its answer from: assets/RELATIVE (results.h's
// committed_asset_path), parsed; a UsageError naming the file where it cannot be read or lacks one
// of the top-level `keys`.
nlohmann::json committed_json(const std::string& relative,
                              std::initializer_list<const char*> keys = {});

// Question::same for the kinds of answers several exercises ask for.
using AnswerCheck = std::function<bool(const std::string& given, const std::string& right)>;

// The number an answer gives, bare or with its unit after it ("0.4", "0.4 us", "111%", "6x");
// nullopt where it gives none.
std::optional<double> answer_number(const std::string& given);
// A measured figure predicted: within `absolute` of the right number, or within `relative` (a
// share of it) where that is wider.
AnswerCheck within(double absolute, double relative);
// A size ("2^24" or its digits, as --n takes it): the right one or at most `steps` powers of two
// either side (the committed runs are a power of two apart).
AnswerCheck size_within(int steps);
// An order question over measured times (name -> time): the names fastest first, separated by
// commas, and its check: every name once, no pair the wrong way round by more than `tie` (a share:
// 0.02 lets times within 2% come in either order).
std::string fastest_first(const std::map<std::string, double>& times);
bool same_order(const std::string& given, const std::map<std::string, double>& times, double tie);
// The same over times kept by a number (a block size, a grid): its digits name it.
template <class Number>
std::map<std::string, double> named(const std::map<Number, double>& times) {
  std::map<std::string, double> by_name;
  for (const auto& [key, t] : times) by_name[std::to_string(key)] = t;
  return by_name;
}

// Reads the answers file at `path` and checks every question against it: prints one line a
// question that is not right (wrong, with its nudge; or not answered) and a last line `answers: K
// of N right` (only `answers: none given yet` where every answer is blank). Returns 0 when every
// answer is right, 1 otherwise. A file that cannot be read, a line that is not `key = value`, a key
// no question has or one given twice is a UsageError (one line, before anything is derived).
int check_answers(std::ostream& out, const std::string& path,
                  const std::vector<Question>& questions);

}  // namespace rl
