#include "common/host/answers.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>
#include <sstream>

#include "common/host/cli.h"

namespace rl {

std::vector<std::string> answer_words(const std::string& text) {
  std::vector<std::string> words;
  std::string word;
  for (const char c : text + " ") {
    if (c == ' ' || c == ',' || c == '\t') {
      if (!word.empty()) words.push_back(word), word.clear();
    } else {
      word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
  }
  return words;
}

namespace {

std::string trimmed(const std::string& s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
}

// key -> the answer given ("" where the line is left blank), in the file's words.
std::map<std::string, std::string> read_answers(const std::string& path,
                                                const std::vector<Question>& questions) {
  std::ifstream in(path);
  if (!in) throw UsageError("--check-answers: cannot read " + path);
  std::map<std::string, std::string> given;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    const std::string where = path + ":" + std::to_string(number) + ": ";
    const std::string text = trimmed(line.substr(0, line.find('#')));
    if (text.empty()) continue;
    const auto eq = text.find('=');
    if (eq == std::string::npos) throw UsageError(where + "not a `key = value` line: " + text);
    const std::string key = trimmed(text.substr(0, eq)), value = trimmed(text.substr(eq + 1));
    if (std::none_of(questions.begin(), questions.end(),
                     [&](const Question& q) { return q.key == key; }))
      throw UsageError(where + "no question is called '" + key + "'");
    if (!given.emplace(key, value).second)
      throw UsageError(where + "'" + key + "' is answered twice");
  }
  return given;
}

}  // namespace

int check_answers(std::ostream& out, const std::string& path,
                  const std::vector<Question>& questions) {
  const auto given = read_answers(path, questions);
  out << "checking the answers in " << path << '\n';
  const bool any =
      std::any_of(given.begin(), given.end(), [](const auto& g) { return !g.second.empty(); });
  if (!any) {
    out << "answers: none given yet (" << questions.size() << " questions)\n";
    return 1;
  }
  std::size_t right = 0;
  for (const Question& q : questions) {
    const auto it = given.find(q.key);
    if (it == given.end() || it->second.empty()) {
      out << "  " << q.key << ": not answered\n";
      continue;
    }
    const std::string answer = q.answer();
    const bool ok =
        q.same ? q.same(it->second, answer) : answer_words(it->second) == answer_words(answer);
    if (ok) {
      ++right;
      continue;
    }
    out << "  " << q.key << ": wrong (" << it->second << "). " << q.nudge << '\n';
  }
  out << "answers: " << right << " of " << questions.size() << " right\n";
  return right == questions.size() ? 0 : 1;
}

}  // namespace rl
