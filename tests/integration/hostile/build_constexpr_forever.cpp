// Build-time DoS: 100,000 constants, each evaluated within g++'s per-expression limits (loop 262144, ops 2^25) - hours of compiling.
#include <utility>
constexpr unsigned long long spin(unsigned long long k) {
  unsigned long long s = k;
  for (int i = 0; i < 1000; i++)
    for (int j = 0; j < 1000; j++) s += i ^ j;
  return s;
}
template <unsigned long long K> constexpr unsigned long long v = spin(K);
template <std::size_t... K> constexpr unsigned long long sum(std::index_sequence<K...>) { return (v<K> + ...); }
template <std::size_t B> constexpr unsigned long long block = sum(std::make_index_sequence<250>{}) + B;
template <std::size_t... B> constexpr unsigned long long all(std::index_sequence<B...>) { return (block<B> + ...); }
int main() { return all(std::make_index_sequence<400>{}) == 42; }
