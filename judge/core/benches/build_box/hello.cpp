#include <bits/stdc++.h>
int main() { std::cout << "hello\n"; }
