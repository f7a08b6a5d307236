#include <fstream>
#include <string>
int main() {
  std::ifstream in("/dev/stdin");
  std::ofstream out("/dev/stdout");
  std::string line;
  int lines = 0;
  while (std::getline(in, line)) lines++;
  out << (lines == 8 ? 0 : 1) << std::endl;
}
