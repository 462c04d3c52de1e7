#include "common/host/answers.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

#include "common/host/cli.h"
#include "common/host/results.h"

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

nlohmann::json committed_json(const std::string& relative,
                              std::initializer_list<const char*> keys) {
  const std::string path = committed_asset_path(relative);
  std::ifstream in(path);
  nlohmann::json doc = nlohmann::json::parse(in, nullptr, false);
  bool complete = !doc.is_discarded() && doc.is_object();
  for (const char* key : keys) complete = complete && doc.contains(key);
  if (!complete)
    throw UsageError("the course's data the answers come from cannot be read: " + path);
  return doc;
}

std::optional<double> answer_number(const std::string& given) {
  const auto words = answer_words(given);
  const auto unit = [](std::string_view u) {
    return u.empty() || u == "us" || u == "%" || u == "x";
  };
  if (words.empty() || words.size() > 2 || (words.size() == 2 && !unit(words[1])))
    return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(words[0].c_str(), &end);
  if (end == words[0].c_str() || !unit(end) || !std::isfinite(v)) return std::nullopt;
  return v;
}

AnswerCheck within(double absolute, double relative) {
  return [absolute, relative](const std::string& given, const std::string& right) {
    const auto g = answer_number(given), r = answer_number(right);
    return g && r && std::fabs(*g - *r) <= std::max(absolute, relative * std::fabs(*r));
  };
}

AnswerCheck size_within(int steps) {
  return [steps](const std::string& given, const std::string& right) {
    const auto words = answer_words(given);
    if (words.size() != 1) return false;
    const auto g = parse_size(words[0]), r = parse_size(right);
    if (!g || !r || *g == 0) return false;
    for (int k = 0; k <= steps; ++k)
      if (*g == (*r << k) || (*g << k) == *r) return true;
    return false;
  };
}

std::string fastest_first(const std::map<std::string, double>& times) {
  std::vector<std::string> order;
  for (const auto& [name, t] : times) order.push_back(name);
  std::stable_sort(order.begin(), order.end(), [&](const std::string& a, const std::string& b) {
    return times.at(a) < times.at(b);
  });
  std::string text;
  for (const std::string& name : order) text += (text.empty() ? "" : ", ") + name;
  return text;
}

bool same_order(const std::string& given, const std::map<std::string, double>& times, double tie) {
  std::vector<std::string> order;
  for (const std::string& w : answer_words(given)) {
    if (!times.count(w) || std::find(order.begin(), order.end(), w) != order.end()) return false;
    order.push_back(w);
  }
  if (order.size() != times.size()) return false;
  for (std::size_t i = 0; i < order.size(); ++i)
    for (std::size_t j = i + 1; j < order.size(); ++j)
      if (times.at(order[i]) > times.at(order[j]) * (1 + tie)) return false;
  return true;
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
